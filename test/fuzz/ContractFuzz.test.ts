import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { privateKeyToAccount } from "viem/accounts"
import { runFuzz, stillAlive, summarize } from "../../scripts/fuzz/Fuzzer.ts"
import { FUZZ_ADMIN_KEY, startLocalJwks } from "../../scripts/fuzz/LocalJwks.ts"
import { indexedHead } from "../exchange/support.ts"
import { baseUrl, TestServices } from "../support/TestServer.ts"
import { TEST_JWT_SECRET } from "../sessions/support.ts"

/**
 * Contract fuzz (issue 13, part 1), CI size: every route of the client, exchange and search OpenAPI documents gets
 * FUZZ_PER_ROUTE (default 3) fast-check requests without a session, and the routes that take a session as many
 * again with a fresh valid one. No answer may be a 5xx, hang or drop the connection; every 4xx carries the API's
 * error body; every service answers its health route afterwards. `npm run fuzz` is the same with ≥ 10,000 requests.
 * FUZZ_SEED picks other inputs (CI keeps seed 1 so that a red run is reproducible).
 */
const MAX_BODY_BYTES = 65_536

const FuzzStack = Layer.unwrap(
  Effect.gen(function* () {
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-fuzz-"))),
      (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
    )
    const jwks = yield* Effect.acquireRelease(Effect.promise(startLocalJwks), (j) => Effect.promise(j.close))
    return TestServices(
      ["client", "exchange", "search", "indexer"],
      { dataDir, maxBodyBytes: MAX_BODY_BYTES },
      {
        // The fuzz is one caller: the per-IP limit would turn most exchange requests into 429s before the route runs.
        exchangePublic: { limit: 1_000_000, windowSeconds: 60 }
      }
    ).pipe(
      Layer.provide(
        ConfigProvider.layer(
          ConfigProvider.fromEnvRecord({
            JWT_SECRET: TEST_JWT_SECRET,
            ADMIN_WALLETS: privateKeyToAccount(FUZZ_ADMIN_KEY).address,
            INDEXER_POLL_MS: "50",
            ...jwks.env
          })
        )
      )
    )
  })
)

layer(FuzzStack, { timeout: "120 seconds", excludeTestServices: true })(
  "contract fuzz (OpenAPI → fast-check)",
  (it) => {
    it.effect(
      "no route answers 5xx, hangs or breaks the error shape; every service is alive afterwards",
      () =>
        Effect.gen(function* () {
          if (process.env.FUZZ_LOG) console.log("waiting for the indexer")
          yield* indexedHead
          const urls = {
            client: yield* baseUrl("client"),
            exchange: yield* baseUrl("exchange"),
            search: yield* baseUrl("search")
          }
          const report = yield* Effect.promise(() =>
            runFuzz({
              urls,
              perRoute: Number(process.env.FUZZ_PER_ROUTE ?? 3),
              seed: Number(process.env.FUZZ_SEED ?? 1),
              concurrency: 4,
              oversizeBytes: MAX_BODY_BYTES + 1,
              timeoutMs: 15_000,
              adminKey: FUZZ_ADMIN_KEY,
              ...(process.env.FUZZ_LOG ? { log: (line: string) => console.log(line) } : {}),
              ...(process.env.FUZZ_LOG === "trace" ? { trace: (line: string) => console.log(line) } : {})
            })
          )
          if (process.env.FUZZ_LOG) console.log(JSON.stringify({ ...report, violations: report.violations.length }))
          // Every route of the three documents was reached (a broken walker would pass vacuously).
          assert.isAbove(report.routes, 90)
          assert.isAtLeast(report.total, report.routes * 3)
          assert.strictEqual(report.violations.length, 0, `\n${summarize(report.violations)}`)
          assert.isUndefined(report.byClass["5xx"])
          assert.isAbove(report.byClass["4xx"] ?? 0, 0)
          assert.isAbove(report.byClass["2xx"] ?? 0, 0)
          assert.deepStrictEqual(yield* Effect.promise(() => stillAlive(urls)), {
            client: 200,
            exchange: 200,
            search: 200
          })
        }),
      { timeout: 600_000 }
    )
  }
)
