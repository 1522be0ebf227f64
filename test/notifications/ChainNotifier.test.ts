import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress, parseEther } from "viem"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { ChainNotifier } from "../../src/client-api/notifications/ChainNotifier.ts"
import { Notifications } from "../../src/client-api/notifications/Notifications.ts"
import { write } from "../contracts/chain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { type Devnet, seed, startDevnet } from "../indexer/devnet.ts"
import { indexerLayer } from "../indexer/harness.ts"

const DEPTH = 4

/** Indexes up to the chain head with a fresh indexer (each call is a restart of the indexer). */
const indexToHead = (d: Devnet) =>
  Effect.gen(function* () {
    const head = yield* Effect.promise(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
    yield* (yield* IndexerStatus).awaitBlock(head, "60 seconds")
    return head
  }).pipe(Effect.provide(indexerLayer(d)))

/** One round of a fresh notifier instance (each call is a restart of the notifier). */
const notifyRound = ChainNotifier.pipe(
  Effect.flatMap((n) => n.runOnce),
  Effect.provide(
    ChainNotifier.layerWith({ chainId: 31337, finalityDepth: DEPTH, pollMs: 1000 }).pipe(
      Layer.provide(Notifications.layer)
    )
  )
)

interface Seen {
  readonly kind: string
  readonly wallet: string
  readonly token: string
  readonly amount: string | null
  readonly txHash: string
}

const notifications = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<Seen>`
    SELECT n.kind, u.wallet_address AS wallet, n.payload->>'token' AS token, n.payload->>'amount' AS amount,
           n.payload->>'txHash' AS tx_hash
    FROM notifications n JOIN users u ON u.id = n.user_id ORDER BY n.id`
).pipe(Effect.orDie)

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })("chain-event notifications", (it) => {
  it.effect(
    "fuel received and token graduated: only past the finality depth, once across reorgs and restarts",
    () =>
      Effect.gen(function* () {
        const d = yield* Effect.promise(() => startDevnet())
        yield* Effect.addFinalizer(() => Effect.promise(() => d.anvil.stop()))
        const s = yield* Effect.promise(() => seed(d))
        const { creatorA, creatorB, giver, other } = d.accounts
        const sql = yield* SqlClient.SqlClient
        for (const wallet of [creatorA, creatorB]) {
          yield* sql`INSERT INTO users (idp_did, wallet_address) VALUES (${`wallet:${getAddress(wallet)}`}, ${getAddress(wallet)})`
        }

        // The seeded history: A got 0.25 ETH of fuel from `giver` and graduated, B got 0.1 ETH from `other`.
        const head = yield* indexToHead(d)
        assert.strictEqual(yield* notifyRound, Number(head) - DEPTH, "the cursor stops at the finality depth")
        const seeded = yield* notifications
        const summary = (rows: ReadonlyArray<Seen>) => rows.map((r) => `${r.kind} ${r.wallet} ${r.token} ${r.amount}`)
        assert.sameMembers(summary(seeded), [
          `FUEL_RECEIVED ${getAddress(creatorA)} ${s.a.token.toLowerCase()} ${parseEther("0.25")}`,
          `FUEL_RECEIVED ${getAddress(creatorB)} ${s.b.token.toLowerCase()} ${parseEther("0.1")}`,
          `TOKEN_GRADUATED ${getAddress(creatorA)} ${s.a.token.toLowerCase()} null`
        ])

        // A gift in the newest block: indexed, but not final yet, so no notification.
        const fork = yield* Effect.promise(() => d.chain.test.snapshot())
        yield* Effect.promise(() =>
          write(d.chain, giver, d.pad.fuelVault, FuelVaultAbi, "give", [s.b.token], parseEther("0.7"))
        )
        yield* indexToHead(d)
        yield* notifyRound
        assert.strictEqual((yield* notifications).length, 3, "an unfinal gift is not notified")

        // Reorg: that block is replaced by a branch where `other` fuels B instead, and the chain moves past the depth.
        yield* Effect.promise(() => d.chain.test.revert({ id: fork }))
        yield* Effect.promise(() =>
          write(d.chain, other, d.pad.fuelVault, FuelVaultAbi, "give", [s.b.token], parseEther("0.3"))
        )
        yield* Effect.promise(() => d.chain.test.mine({ blocks: DEPTH + 2 }))
        yield* indexToHead(d)
        yield* notifyRound
        const afterReorg = yield* notifications
        assert.strictEqual(afterReorg.length, 4)
        assert.strictEqual(
          summary(afterReorg)[3],
          `FUEL_RECEIVED ${getAddress(creatorB)} ${s.b.token.toLowerCase()} ${parseEther("0.3")}`
        )
        assert.notInclude(
          summary(afterReorg).join("\n"),
          String(parseEther("0.7")),
          "the reorged-out gift never notified"
        )

        // Restarts (a fresh notifier and indexer each round) and even a lost cursor notify nothing twice.
        yield* notifyRound
        yield* sql`UPDATE notification_cursors SET block_number = -1`
        yield* indexToHead(d)
        yield* notifyRound
        assert.deepStrictEqual(yield* notifications, afterReorg)
        const unread = yield* sql<{ unread: number }>`
        SELECT c.unread FROM notification_counters c JOIN users u ON u.id = c.user_id ORDER BY u.wallet_address = ${getAddress(creatorA)} DESC`
        assert.deepStrictEqual(
          unread.map((r) => r.unread),
          [2, 2]
        )
      }).pipe(Effect.scoped),
    120_000
  )
})
