import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { Redis } from "effect/persistence"
import { SqlClient } from "effect/sql"
import { type ChildProcess, spawn } from "node:child_process"
import * as NodePath from "node:path"
import { inject } from "vitest"
import { AnvilChain } from "../layers/AnvilChain.ts"
import { TestDatabase, TestDatabaseInfo } from "../layers/TestDatabase.ts"
import { fetchJson } from "../layers/TestServer.ts"
import { redisUrl } from "./support.ts"

/**
 * The per-IP limit is shared by separate server processes: two `--services exchange` processes over one database
 * (and, second round, one Redis) with a limit of 5 per 60 s. Requests alternate between them; the 6th is refused by
 * whichever gets it; once the window ends (its counter expired in the store), both allow again.
 */
const root = NodePath.resolve(import.meta.dirname, "../..")

const startExchange = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [NodePath.join(root, "src/main.ts"), "--services", "exchange"], {
          cwd: root,
          env: { ...process.env, EXCHANGE_PORT: "0", HOST: "127.0.0.1", LOG_FORMAT: "json", ...env },
          stdio: ["ignore", "pipe", "pipe"]
        })
        let out = ""
        const onData = (chunk: Buffer) => {
          out += chunk.toString()
          const url = out.match(/^exchange\s+(http:\/\/\S+)/m)?.[1]
          if (url !== undefined && /^ready: /m.test(out)) resolve({ child, url })
        }
        child.stdout!.on("data", onData)
        child.stderr!.on("data", onData)
        child.once("exit", (code) => reject(new Error(`exited with ${code} before ready:\n${out}`)))
      })
    ),
    ({ child }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve()
          child.once("exit", () => resolve())
          child.kill("SIGTERM")
        })
      )
  )

layer(Layer.mergeAll(TestDatabase, AnvilChain.layer), { timeout: "120 seconds" })("rate limit across two processes", (it) => {
  for (const store of ["postgres", "redis"] as const) {
    it.effect(`${store}: 5 per window shared by two processes; 429 with Retry-After; allowed again after the window`, () =>
      Effect.gen(function*() {
        const db = yield* TestDatabaseInfo
        const chain = yield* AnvilChain
        const env = {
          DATABASE_URL: Redacted.value(db.url),
          RPC_URL: chain.rpcUrl,
          DEPLOYMENTS_FILE: inject("devnetDeploymentsFile"),
          RATE_LIMIT_STORE: store,
          REDIS_URL: redisUrl,
          RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT: "5",
          RATE_LIMIT_EXCHANGE_PUBLIC_WINDOW_SECONDS: "60"
        }
        const delRedisCounter = Effect.scoped(Effect.gen(function*() {
          const ctx = yield* Layer.build(NodeRedis.layer({ url: redisUrl }))
          const redis = ctx.mapUnsafe.get(Redis.Redis.key) as Redis.Redis["Service"]
          yield* redis.send("DEL", "fire:rl:exchange-public:127.0.0.1")
        }))
        // A previous run's window may still be open in the shared Redis.
        if (store === "redis") yield* delRedisCounter
        const [a, b] = yield* Effect.all([startExchange(env), startExchange(env)], { concurrency: 2 })
        const path = "/api/v1/pools/metrics"
        const answers = []
        for (let i = 0; i < 7; i++) answers.push(yield* fetchJson(`${(i % 2 === 0 ? a : b).url}${path}`))
        assert.deepStrictEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200, 429, 429])
        assert.deepStrictEqual(answers.slice(0, 5).map((r) => r.headers.get("ratelimit-remaining")), ["4", "3", "2", "1", "0"])
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
        const again = yield* fetchJson(`${b.url}${path}`)
        assert.strictEqual(again.status, 200)
        assert.strictEqual(again.headers.get("ratelimit-remaining"), "4")
        assert.strictEqual((yield* fetchJson(`${a.url}${path}`)).headers.get("ratelimit-remaining"), "3")
      }).pipe(Effect.scoped))
  }
})
