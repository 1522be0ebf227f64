import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Redis } from "effect/persistence"
import { SqlClient } from "effect/sql"
import { AnvilChain } from "../support/AnvilChain.ts"
import { startServiceProcess } from "../support/ServiceProcess.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { fetchJson } from "../support/TestServer.ts"
import { redisUrl } from "./support.ts"

/**
 * The per-IP limit is shared by separate server processes: two `--services exchange` processes over one database
 * (and, second round, one Redis) with a limit of 5 per 60 s. Requests alternate between them; the 6th is refused by
 * whichever gets it; once the window ends (its counter expired in the store), both allow again.
 */
layer(Layer.mergeAll(TestDatabase, AnvilChain.layer), { timeout: "120 seconds" })(
  "rate limit across two processes",
  (it) => {
    for (const store of ["postgres", "redis"] as const) {
      it.effect(
        `${store}: 5 per window shared by two processes; 429 with Retry-After; allowed again after the window`,
        () =>
          Effect.gen(function* () {
            // `node src/main.ts --services exchange` over the test database and chain (test/support/ServiceProcess.ts).
            const env = {
              RATE_LIMIT_STORE: store,
              REDIS_URL: redisUrl,
              RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT: "5",
              RATE_LIMIT_EXCHANGE_PUBLIC_WINDOW_SECONDS: "60"
            }
            const delRedisCounter = Effect.scoped(
              Effect.gen(function* () {
                const ctx = yield* Layer.build(NodeRedis.layer({ url: redisUrl }))
                const redis = ctx.mapUnsafe.get(Redis.Redis.key) as Redis.Redis["Service"]
                yield* redis.send("DEL", "fire:rl:exchange-public:127.0.0.1")
              })
            )
            // A previous run's window may still be open in the shared Redis.
            if (store === "redis") yield* delRedisCounter
            const [pa, pb] = yield* Effect.all(
              [startServiceProcess(["exchange"], env), startServiceProcess(["exchange"], env)],
              { concurrency: 2 }
            )
            const [a, b] = [pa.urls.exchange!, pb.urls.exchange!]
            const path = "/api/v1/pools/metrics"
            const answers = []
            for (let i = 0; i < 7; i++) answers.push(yield* fetchJson(`${i % 2 === 0 ? a : b}${path}`))
            assert.deepStrictEqual(
              answers.map((r) => r.status),
              [200, 200, 200, 200, 200, 429, 429]
            )
            assert.deepStrictEqual(
              answers.slice(0, 5).map((r) => r.headers.get("ratelimit-remaining")),
              ["4", "3", "2", "1", "0"]
            )
            const refused = answers[5]!
            assert.strictEqual(refused.body.code, "RATE_LIMITED")
            assert.isString(refused.body.error)
            const retryAfter = Number(refused.headers.get("retry-after"))
            assert.isAtLeast(retryAfter, 1)
            assert.isAtMost(retryAfter, 60)
            assert.strictEqual(refused.headers.get("ratelimit-limit"), "5")
            // End the window in the store itself (as time would), then both processes allow again.
            if (store === "postgres") {
              const sql = yield* SqlClient.SqlClient
              yield* sql`UPDATE rate_limit_counters SET expires_at = now() - interval '1 second' WHERE counter = 'exchange-public:127.0.0.1'`
            } else {
              // Redis ends a window by expiring the key; deleting it is the same state.
              yield* delRedisCounter
            }
            // A process refuses on the store's last word for up to RATE_LIMIT_FLUSH_MS (100 ms), then asks it again
            // (src/platform/ratelimit/LocalCounts.ts decideLocally); those refusals are not counted.
            const allowedAgain = (url: string) =>
              Effect.gen(function* () {
                for (let i = 0; i < 100; i++) {
                  const answer = yield* fetchJson(url)
                  if (answer.status === 200) return answer
                  // The processes' clocks are real (this test's is not): wait on a real timer.
                  yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
                }
                return assert.fail(`${url} still refused 2 s after the window ended in the store`)
              })
            const again = yield* allowedAgain(`${b}${path}`)
            assert.strictEqual(again.headers.get("ratelimit-remaining"), "4")
            assert.strictEqual((yield* allowedAgain(`${a}${path}`)).headers.get("ratelimit-remaining"), "3")
          }).pipe(Effect.scoped)
      )
    }
  }
)
