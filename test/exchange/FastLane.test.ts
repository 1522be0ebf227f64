import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Metric, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { servicesLayer } from "../../layers/App.ts"
import { ExchangeConfig, type ExchangeSettings } from "../../src/exchange-api/ExchangeConfig.ts"
import { fastLaneResponses } from "../../src/exchange-api/cache/ExchangeFastLane.ts"
import { CHANGES_CHANNEL } from "../../src/indexer/IndexerChangeFeed.ts"
import type { ServiceName } from "../../src/platform/AppConfig.ts"
import { Listening } from "../../src/platform/http/Serve.ts"
import { type RawAnswer as Raw, rawGet as raw } from "../support/RawHttp.ts"
import { baseUrl, TestServices } from "../support/TestServer.ts"
import { indexedHead } from "./support.ts"

/**
 * The exchange fast lane (src/exchange-api/cache/ExchangeFastLane.ts): cache hits answered at the Node listener give the same
 * status, headers (in the same order) and body as the Effect path with the lane off; the per-IP limit still applies
 * (exactly, with one process); an indexer change message drops what the lane serves. TRUST_PROXY is on so that each
 * case has its own client IP (X-Forwarded-For) and so its own limit counter, and so that `X-Forwarded-Proto: https`
 * is believed (HSTS on both paths).
 */
const chainId = 31337

const header = (r: Raw, name: string) => r.headers.find(([n]) => n === name)?.[1]
/** What must be equal between the lanes: everything but the date and the two per-counter limit figures. */
const comparable = (r: Raw) =>
  r.headers.map(([n, v]) =>
    n === "date" || n === "ratelimit-remaining" || n === "ratelimit-reset" ? [n, "*"] : [n, v]
  )

const laneCount = (status: "200" | "304") =>
  Effect.map(Metric.value(status === "200" ? fastLaneResponses.ok : fastLaneResponses.notModified), (s) => s.count)

/** A second exchange server over the same database and chain, with other exchange settings. */
const otherExchange = (settings: Partial<ExchangeSettings>) =>
  Effect.gen(function* () {
    const listening = new Map<ServiceName, string>()
    yield* Layer.build(
      servicesLayer(["exchange"]).pipe(
        Layer.provide(Layer.mergeAll(ExchangeConfig.layerWith(settings), Layer.succeed(Listening, listening)))
      )
    )
    return listening.get("exchange")!
  })

layer(
  TestServices(
    ["exchange", "indexer"],
    { trustProxy: true },
    {
      exchangePublic: { limit: 300, windowSeconds: 60 },
      local: { batch: 20, flushMs: 20 }
    }
  ),
  { timeout: "120 seconds", excludeTestServices: true }
)("exchange fast lane", (it) => {
  it.effect("a hit via the lane = the Effect path's hit (lane off): status, headers in order, body; 304 likewise", () =>
    Effect.gen(function* () {
      yield* indexedHead
      const sql = yield* SqlClient.SqlClient
      const [launch] = yield* sql<{
        token: string
        pool: string
      }>`SELECT token, pool FROM launches WHERE chain_id = ${chainId} ORDER BY block_number LIMIT 1`
      const on = yield* baseUrl("exchange")
      const off = yield* otherExchange({ fastLane: false })
      const paths = [
        `/api/v1/tokens/${launch!.token}-${chainId}`,
        "/api/v1/pools/list?sort=volume&limit=5",
        `/api/v1/pools/${launch!.pool}-${chainId}/ticks`
      ]
      const client = { "x-forwarded-for": "10.0.0.1", "x-request-id": "fast-lane-test" }
      for (const path of paths) {
        yield* raw(`${off}${path}`, client) // fills the lane-off server's cache
        const effectHit = yield* raw(`${off}${path}`, client)
        yield* raw(`${on}${path}`, client) // a miss: the Effect path fills the cache
        const before = yield* laneCount("200")
        const laneHit = yield* raw(`${on}${path}`, client)
        assert.strictEqual(yield* laneCount("200"), before + 1, `${path}: answered by the lane`)
        assert.strictEqual(laneHit.status, 200)
        assert.deepStrictEqual(comparable(laneHit), comparable(effectHit), path)
        assert.isTrue(laneHit.body.equals(effectHit.body), `${path}: same body bytes`)
        assert.strictEqual(header(laneHit, "x-request-id"), "fast-lane-test")
        assert.strictEqual(header(laneHit, "ratelimit-limit"), "300")
        assert.strictEqual(header(laneHit, "ratelimit-policy"), "300;w=60")
        // If-None-Match with the current tag: 304 without a body on both paths.
        const etag = header(laneHit, "etag")!
        const effect304 = yield* raw(`${off}${path}`, { ...client, "if-none-match": `W/${etag}, "other"` })
        const before304 = yield* laneCount("304")
        const lane304 = yield* raw(`${on}${path}`, { ...client, "if-none-match": `W/${etag}, "other"` })
        assert.strictEqual(yield* laneCount("304"), before304 + 1)
        assert.strictEqual(lane304.status, 304)
        assert.strictEqual(lane304.body.length, 0)
        assert.deepStrictEqual(comparable(lane304), comparable(effect304), `${path} (304)`)
        // Over TLS behind the trusted proxy (HSTS added), 200 and 304, and with a tag that is not current (200).
        for (const [extra, status] of [
          [{ "x-forwarded-proto": "https" }, "200"],
          [{ "x-forwarded-proto": "https", "if-none-match": etag }, "304"],
          [{ "if-none-match": '"not-the-current-tag"' }, "200"]
        ] as const) {
          const effectAnswer = yield* raw(`${off}${path}`, { ...client, ...extra })
          const count = yield* laneCount(status)
          const laneAnswer = yield* raw(`${on}${path}`, { ...client, ...extra })
          assert.strictEqual(yield* laneCount(status), count + 1, `${path} ${JSON.stringify(extra)}: by the lane`)
          assert.strictEqual(laneAnswer.status, Number(status))
          assert.strictEqual(effectAnswer.status, Number(status))
          assert.deepStrictEqual(comparable(laneAnswer), comparable(effectAnswer), `${path} ${JSON.stringify(extra)}`)
          assert.isTrue(laneAnswer.body.equals(effectAnswer.body))
          assert.strictEqual(
            header(laneAnswer, "strict-transport-security") !== undefined,
            "x-forwarded-proto" in extra
          )
        }
      }
      // Without a request id (or with one that is not plain) the lane mints one, as the Effect path does.
      const minted = yield* raw(`${on}${paths[1]}`, {
        "x-forwarded-for": "10.0.0.1",
        "x-request-id": "no spaces allowed"
      })
      assert.match(header(minted, "x-request-id")!, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u)
      // The lane-off server and a cache-off server never answer from the lane.
      const cacheOff = yield* otherExchange({ cacheEnabled: false })
      const count = yield* laneCount("200")
      for (const base of [off, off, cacheOff, cacheOff])
        assert.strictEqual((yield* raw(`${base}${paths[1]}`, client)).status, 200)
      assert.strictEqual(yield* laneCount("200"), count)
    }).pipe(Effect.scoped)
  )

  it.effect("the per-IP limit applies on the lane: 300 allowed (remaining 299..0), then 429 from the Effect path", () =>
    Effect.gen(function* () {
      yield* indexedHead
      const on = yield* baseUrl("exchange")
      const path = "/api/v1/pools/list?limit=3"
      const client = { "x-forwarded-for": "10.0.0.2" }
      const before = yield* laneCount("200")
      const answers: Array<Raw> = []
      for (let i = 0; i < 320; i++) answers.push(yield* raw(`${on}${path}`, client))
      const byLane = (yield* laneCount("200")) - before
      assert.deepStrictEqual(
        answers.map((r) => r.status),
        [...Array(300).fill(200), ...Array(20).fill(429)]
      )
      assert.deepStrictEqual(
        answers.slice(0, 300).map((r) => Number(header(r, "ratelimit-remaining"))),
        Array.from({ length: 300 }, (_, i) => 299 - i)
      )
      assert.strictEqual(JSON.parse(answers[300]!.body.toString()).code, "RATE_LIMITED")
      assert.isDefined(header(answers[300]!, "retry-after"))
      // The first request fills the cache and the last `batch` before the limit are the store's; most are the lane's.
      assert.isAtLeast(byLane, 150)
      assert.isAtMost(byLane, 300 - 20)
    })
  )

  it.effect("an indexer change message drops what the lane serves: the next answer is read afresh", () =>
    Effect.gen(function* () {
      yield* indexedHead
      const sql = yield* SqlClient.SqlClient
      const on = yield* baseUrl("exchange")
      const [launch] = yield* sql<{
        token: string
      }>`SELECT token FROM launches WHERE chain_id = ${chainId} ORDER BY block_number LIMIT 1`
      const path = `/api/v1/tokens/${launch!.token}-${chainId}`
      const client = { "x-forwarded-for": "10.0.0.3" }
      const first = yield* raw(`${on}${path}`, client)
      yield* sql`UPDATE tokens SET name = 'Edited behind the lane' WHERE chain_id = ${chainId} AND address = ${launch!.token}`
      const before = yield* laneCount("200")
      const stale = yield* raw(`${on}${path}`, client)
      assert.strictEqual(yield* laneCount("200"), before + 1)
      assert.isTrue(stale.body.equals(first.body), "the lane serves the cached answer until a change")
      const message = {
        kind: "batch",
        chainId,
        fromBlock: "1",
        toBlock: "1",
        pools: 0,
        tokens: 1,
        status: { phase: "following", eventsPerSecond: 0, reorgs: 0, lastError: null, head: null },
        at: Date.now()
      }
      yield* sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${JSON.stringify(message)})`
      const fresh = yield* raw(`${on}${path}`, client).pipe(
        Effect.repeat({ until: (r) => !r.body.equals(first.body), schedule: Schedule.spaced("20 millis") }),
        Effect.timeout("10 seconds")
      )
      assert.strictEqual(JSON.parse(fresh.body.toString()).name, "Edited behind the lane")
      assert.notStrictEqual(header(fresh, "etag"), header(first, "etag"))
    })
  )
})
