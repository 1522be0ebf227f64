import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { getAddress, parseEther } from "viem"
import { receiptOf } from "../../scripts/devnet/tx.ts"
import { AnvilChain } from "../support/AnvilChain.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

layer(AnvilChain.layer, { timeout: "60 seconds" })("AnvilChain test helpers", (it) => {
  it.effect("blocks after the loaded state are stamped after its last block (clock aligned on load)", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const last = yield* promise(() => chain.publicClient.getBlock())
      // The seed waited out a one-hour grace period: a state saved less than an hour ago runs ahead of the wall
      // clock (the warm-start test checks that case on purpose).
      yield* promise(() => chain.mine(1))
      const next = yield* promise(() => chain.publicClient.getBlock())
      assert.isTrue(next.timestamp > last.timestamp)
    })
  )

  it.effect("reorg replaces blocks: new hashes at the same heights, the transaction in them is gone", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const [alice, bob] = [chain.accounts[1]!, chain.accounts[2]!]
      const receipt = yield* promise(() => chain.sender.send(alice, { to: bob.address, value: parseEther("1") }))
      yield* promise(() => chain.mine(2))
      const head = yield* promise(() => chain.blockNumber())
      assert.strictEqual(head, receipt.blockNumber + 2n)
      const bobBefore = yield* promise(() => chain.publicClient.getBalance({ address: bob.address }))

      const replaced = yield* promise(() => chain.reorg(3))
      assert.deepStrictEqual(
        replaced.map((b) => b.number),
        [head - 2n, head - 1n, head]
      )
      for (const block of replaced) assert.notStrictEqual(block.after, block.before)
      const atHeight = yield* promise(() => chain.publicClient.getBlock({ blockNumber: receipt.blockNumber }))
      assert.strictEqual(atHeight.hash, replaced[0]!.after)
      assert.notStrictEqual(atHeight.hash, receipt.blockHash)
      assert.strictEqual(yield* promise(() => chain.blockNumber()), head) // same height, other blocks
      const gone = yield* promise(() =>
        chain.publicClient.getTransactionReceipt({ hash: receipt.transactionHash }).then(
          () => false,
          () => true
        )
      )
      assert.isTrue(gone)
      const bobAfter = yield* promise(() => chain.publicClient.getBalance({ address: bob.address }))
      assert.strictEqual(bobBefore - bobAfter, parseEther("1"))
      // The parent of the first replaced block is unchanged: the fork point.
      const parent = yield* promise(() => chain.publicClient.getBlock({ blockNumber: receipt.blockNumber - 1n }))
      assert.strictEqual(atHeight.parentHash, parent.hash)
    })
  )

  it.effect("reorg can move a transaction to another block of the new branch", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const [carol, dave] = [chain.accounts[3]!, chain.accounts[4]!]
      const raw = yield* promise(async () => {
        const request = await chain.wallets[3]!.prepareTransactionRequest({ to: dave.address, value: 12345n })
        return chain.wallets[3]!.signTransaction(request)
      })
      const hash = yield* promise(() => chain.publicClient.sendRawTransaction({ serializedTransaction: raw }))
      const included = yield* promise(() => receiptOf(chain.publicClient, hash))
      yield* promise(() => chain.mine(2))
      yield* promise(() => chain.reorg(3, [[raw, 2]]))
      const moved = yield* promise(() => chain.publicClient.getTransactionReceipt({ hash }))
      assert.strictEqual(moved.blockNumber, included.blockNumber + 2n)
      assert.notStrictEqual(moved.blockHash, included.blockHash)
      assert.strictEqual(getAddress(moved.from), carol.address)
    })
  )

  it.effect("mine, increaseTime, snapshot and revert", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const start = yield* promise(() => chain.publicClient.getBlock())
      yield* promise(() => chain.mine(5))
      assert.strictEqual(yield* promise(() => chain.blockNumber()), start.number + 5n)

      const id = yield* promise(() => chain.snapshot())
      yield* promise(() => chain.increaseTime(86_400))
      const later = yield* promise(() => chain.publicClient.getBlock())
      assert.isAtLeast(Number(later.timestamp - start.timestamp), 86_400)
      yield* promise(() => chain.sender.send(chain.accounts[5]!, { to: chain.accounts[6]!.address, value: 1n }))

      yield* promise(() => chain.revert(id))
      assert.strictEqual(yield* promise(() => chain.blockNumber()), start.number + 5n)
    })
  )
})
