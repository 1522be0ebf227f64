import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Metric, Schedule } from "effect"
import { servicesLayer } from "../../layers/App.ts"
import { clientFastLaneResponses } from "../../src/client-api/ClientCacheLive.ts"
import type { ServiceName } from "../../src/platform/AppConfig.ts"
import { Listening } from "../../src/platform/http/Serve.ts"
import { comment, launchedTokens, member } from "../comments/support.ts"
import { newAccount, TEST_JWT_SECRET } from "../sessions/support.ts"
import { indexerAtHead, SocialServer } from "../social/support.ts"
import { comparableHeaders, rawGet } from "../support/RawHttp.ts"
import { baseUrl } from "../support/TestServer.ts"

/**
 * The client API's cache of anonymous public reads (token detail, a token's comments, the feed, a public profile) and its fast lane (src/client-api/ClientCache.ts,
 * ClientCacheLive.ts): a lane answer equals the answer of a client server with CLIENT_CACHE=false (status, headers
 * in order but Date and the two per-counter limit figures, body bytes); a signed-in request never takes the lane; a
 * comment is in the next anonymous read of its token's comments, right after the author's POST answered.
 */
const laneCount = Effect.map(Metric.value(clientFastLaneResponses.ok), (s) => s.count)
const perCounter = ["ratelimit-remaining", "ratelimit-reset"]

/** A second client server over the same database and chain (its own cache), with `env` as its configuration. */
const otherClient = (env: Record<string, string>) =>
  Effect.gen(function* () {
    const listening = new Map<ServiceName, string>()
    yield* Layer.build(
      servicesLayer(["client"]).pipe(
        Layer.provide(
          Layer.mergeAll(
            Layer.succeed(Listening, listening),
            ConfigProvider.layer(ConfigProvider.fromEnvRecord({ JWT_SECRET: TEST_JWT_SECRET, ...env }))
          )
        )
      )
    )
    return listening.get("client")!
  })

/** A second client server over the same database and chain, with the cache off. */
const uncachedClient = Effect.gen(function* () {
  const listening = new Map<ServiceName, string>()
  yield* Layer.build(
    servicesLayer(["client"]).pipe(
      Layer.provide(
        Layer.mergeAll(
          Layer.succeed(Listening, listening),
          ConfigProvider.layer(ConfigProvider.fromEnvRecord({ JWT_SECRET: TEST_JWT_SECRET, CLIENT_CACHE: "false" }))
        )
      )
    )
  )
  return listening.get("client")!
})

layer(SocialServer({ COMMENT_RATE_LIMIT: "100000" }), { timeout: "180 seconds", excludeTestServices: true })(
  "client fast lane",
  (it) => {
    it.effect(
      "anonymous token detail, comments, feed, profile: lane answer = cache-off answer; a write is in the next read",
      () =>
        Effect.gen(function* () {
          yield* indexerAtHead
          const [token] = yield* launchedTokens
          const on = yield* baseUrl("client")
          const off = yield* uncachedClient
          const account = newAccount()
          const author = yield* member(account)
          const paths = [
            `/v1/tokens/${token}`,
            `/v1/comments/tokens/${token}`,
            `/v1/comments/tokens/${token}?limit=5`,
            "/v1/feed",
            "/v1/feed?type=LAUNCHES&limit=5",
            `/v1/users/profile/address/${account.address}`
          ]
          const anonymous = { "x-request-id": "client-lane-test" }
          for (const path of paths) {
            const uncached = yield* rawGet(`${off}${path}`, anonymous)
            assert.strictEqual(uncached.status, 200, path)
            const miss = yield* rawGet(`${on}${path}`, anonymous) // the Effect path fills the cache
            const before = yield* laneCount
            const hit = yield* rawGet(`${on}${path}`, anonymous)
            assert.strictEqual(yield* laneCount, before + 1, `${path}: answered by the lane`)
            for (const answer of [miss, hit]) {
              assert.strictEqual(answer.status, 200)
              assert.deepStrictEqual(
                comparableHeaders(answer, perCounter),
                comparableHeaders(uncached, perCounter),
                path
              )
              assert.isTrue(answer.body.equals(uncached.body), `${path}: same body bytes`)
            }
          }

          // A signed-in reader's requests take the Effect path (its answer may depend on who reads).
          const before = yield* laneCount
          for (const path of paths) assert.strictEqual((yield* rawGet(`${on}${path}`, author.headers)).status, 200)
          assert.strictEqual(yield* laneCount, before)

          // The comments page is cached; the author's comment is in the next anonymous read.
          const page = `/v1/comments/tokens/${token}`
          const count = yield* laneCount
          const cached = JSON.parse((yield* rawGet(`${on}${page}`)).body.toString())
          assert.strictEqual(yield* laneCount, count + 1, "the page came from the lane")
          const made = yield* comment(author, token!, "written while the page was cached")
          const next = JSON.parse((yield* rawGet(`${on}${page}`)).body.toString())
          assert.strictEqual(next.items[0].id, made.id)
          assert.strictEqual(next.commentCount, cached.commentCount + 1)
        }).pipe(Effect.scoped)
    )

    it.effect("a write in one process drops the other processes' entries (NOTIFY), before their 5 s expiry", () =>
      Effect.gen(function* () {
        yield* indexerAtHead
        const [token] = yield* launchedTokens
        const other = yield* otherClient({})
        const author = yield* member(newAccount())
        const page = `${other}/v1/comments/tokens/${token}`
        yield* rawGet(page) // fills the other process's cache
        const count = yield* laneCount
        const cached = JSON.parse((yield* rawGet(page)).body.toString())
        assert.strictEqual(yield* laneCount, count + 1, "the other process answered from its lane")
        const made = yield* comment(author, token!, "written in the first process")
        // Bounded well below the entries' 5 s life: only the message can make the other process see it this soon.
        const seen = yield* rawGet(page).pipe(
          Effect.map((r) => JSON.parse(r.body.toString())),
          Effect.repeat({ until: (p) => p.items[0]?.id === made.id, schedule: Schedule.spaced("20 millis") }),
          Effect.timeout("2500 millis")
        )
        assert.strictEqual(seen.commentCount, cached.commentCount + 1)
      }).pipe(Effect.scoped)
    )
  }
)
