import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ChainReader } from "../../src/indexer/fetch/ChainReader.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { readerOver } from "./fake-reader.ts"

/**
 * `ChainReader.tokensMetadata` against a real anvil (the seeded devnet): a batch's new tokens are read in deployless
 * Multicall3 calls, whose answer comes back as the code of a contract being created and so may not pass EIP-170's
 * 24,576 bytes. A backfill that met 50–100 new tokens in one batch (a fresh index of a chain with many launches: the
 * chaos test's clean index) sent them in one call, the node answered `CreateContractSizeLimit` (a revert the error
 * table counts as retryable), and the indexer retried the same call until it gave up, never reaching the head.
 */
layer(AnvilChain.layer, { timeout: "120 seconds" })("token metadata through Multicall3", (it) => {
  it.effect("50 tokens in one batch: every answer equals the token's own read", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const reader = yield* ChainReader.pipe(Effect.provide(readerOver(chain.publicClient)))
      const head = yield* Effect.promise(() => chain.blockNumber())
      const launches = chain.deployments.launches.map((l) => l.token.toLowerCase())
      const known = [chain.deployments.contracts.weth9.toLowerCase(), ...launches]
      assert.isAtLeast(known.length, 2)
      // 50 entries (the same tokens over and over): four view calls each, 200 answers in all, ~40 KB in one call.
      const tokens = Array.from({ length: 50 }, (_, i) => known[i % known.length]!)
      const together = yield* reader.tokensMetadata(tokens, head)
      assert.strictEqual(together.size, known.length)
      for (const token of known) {
        const alone = yield* reader.tokenMetadata(token, head)
        assert.deepStrictEqual(together.get(token), alone, token)
        assert.isAbove(alone.symbol.length, 0, token)
      }
    })
  )
})
