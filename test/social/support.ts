import { ConfigProvider, Context, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestServices } from "../support/TestServer.ts"
import { TEST_JWT_SECRET } from "../sessions/support.ts"

/**
 * The client and indexer services together over a fresh database and this file's anvil (restored from the seeded
 * devnet): the client routes read what the in-process indexer commits, as in `npm start`.
 */
class TempDataDir extends Context.Service<TempDataDir, string>()("test/social/TempDataDir") {}
const TempDataDirLive = Layer.effect(
  TempDataDir,
  Effect.acquireRelease(
    Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-social-"))),
    (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
  )
)

export const SocialServer = (
  env: Record<string, string> = {},
  services: ReadonlyArray<"client" | "indexer"> = ["client", "indexer"]
) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const dataDir = yield* TempDataDir
      return TestServices(services, { dataDir }).pipe(
        Layer.provide(
          ConfigProvider.layer(
            ConfigProvider.fromEnvRecord({
              JWT_SECRET: TEST_JWT_SECRET,
              INDEXER_POLL_MS: "50",
              // Deep enough for the reorgs the tests make (anvil_reorg of a few blocks).
              FINALITY_DEPTH: "16",
              ...env
            })
          )
        )
      )
    })
  ).pipe(Layer.provide(TempDataDirLive))

/**
 * Waits (bounded) until the indexer has committed the chain's current head and that block's hash is the chain's:
 * after a reorg this holds only once the indexer has rolled back and re-indexed the new branch.
 */
export const indexerAtHead = Effect.gen(function* () {
  const anvil = yield* AnvilChain
  const sql = yield* SqlClient.SqlClient
  const check = Effect.gen(function* () {
    const head = yield* Effect.promise(() => anvil.publicClient.getBlock({ blockTag: "latest" }))
    const rows = yield* sql<{ blockNumber: string; blockHash: string }>`
      SELECT block_number::text AS block_number, block_hash FROM indexer_checkpoints WHERE chain_id = ${anvil.chainId}`
    const cp = rows[0]
    return cp !== undefined && BigInt(cp.blockNumber) === head.number && cp.blockHash === head.hash
  }).pipe(Effect.orDie)
  yield* check.pipe(
    Effect.repeat({ until: (ok) => ok, schedule: Schedule.spaced("50 millis") }),
    Effect.timeout("60 seconds"),
    Effect.orDie
  )
})
