import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Address, maxUint256, parseEther, parseEventLogs, toEventSelector } from "viem"
import { FireTokenAbi, FireTokenBytecode } from "../../contracts/generated/index.ts"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { positionManagerEvents } from "../../src/indexer/Abis.ts"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { abis, deploy, write } from "../contracts/chain.ts"
import { type RecordedGetLogs, startRpcProxy } from "../support/RpcProxy.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { type Devnet, headOf, npm, scopedSeededDevnet } from "./devnet.ts"
import { indexerLayer } from "./harness.ts"

const TRANSFER = toEventSelector(positionManagerEvents[3])

/** The tokenId a position-manager log is about: topic1, or topic3 for a Transfer. */
const tokenIdOf = (log: { readonly topics: ReadonlyArray<string> }) =>
  BigInt(log.topics[log.topics[0] === TRANSFER ? 3 : 1]!)

const mintPosition = async (
  d: Devnet,
  who: Address,
  token0: Address,
  token1: Address,
  range: number,
  amount: bigint
) => {
  const receipt = await write(d.chain, who, d.uni.positionManager, npm, "mint", [
    {
      token0,
      token1,
      fee: 3000,
      tickLower: -range,
      tickUpper: range,
      amount0Desired: amount,
      amount1Desired: amount,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: who,
      deadline: maxUint256
    }
  ])
  const [increase] = parseEventLogs({ abi: positionManagerEvents, logs: receipt.logs, eventName: "IncreaseLiquidity" })
  return increase!.args.tokenId
}

/** Increase, decrease, collect, then hand the NFT to `to`: every manager event a position can have but a burn. */
const churn = async (d: Devnet, who: Address, to: Address, tokenId: bigint, amount: bigint) => {
  const c = d.chain
  const m = d.uni.positionManager
  await write(c, who, m, npm, "increaseLiquidity", [
    { tokenId, amount0Desired: amount, amount1Desired: amount, amount0Min: 0n, amount1Min: 0n, deadline: maxUint256 }
  ])
  await write(c, who, m, npm, "decreaseLiquidity", [
    { tokenId, liquidity: 1000n, amount0Min: 0n, amount1Min: 0n, deadline: maxUint256 }
  ])
  await write(c, who, m, npm, "collect", [{ tokenId, recipient: who, amount0Max: 2n ** 127n, amount1Max: 2n ** 127n }])
  await write(c, who, m, npm, "transferFrom", [who, to, tokenId])
}

/** A pool of two fresh tokens: neither a base token nor a launch, so the indexer does not track it. */
const untrackedPool = async (d: Devnet) => {
  const { gov } = d.accounts
  const token = (name: string) =>
    deploy(d.chain, gov, { abi: FireTokenAbi, bytecode: FireTokenBytecode }, [
      name,
      name,
      parseEther("1000000000"),
      gov
    ])
  const x = await token("XCHURN")
  const y = await token("YCHURN")
  const [token0, token1] = BigInt(x) < BigInt(y) ? [x, y] : [y, x]
  for (const t of [token0, token1])
    await write(d.chain, gov, t, abis.erc20, "approve", [d.uni.positionManager, maxUint256])
  await write(d.chain, gov, d.uni.positionManager, npm, "createAndInitializePoolIfNecessary", [
    token0,
    token1,
    3000,
    1n << 96n
  ])
  return { token0, token1 }
}

/** Manager logs answered by eth_getLogs over block ranges (by hash, a block's logs come whole: not a filter's). */
const managerRangeAnswers = (recorded: ReadonlyArray<RecordedGetLogs>, manager: string) => {
  const byRange = recorded.filter((r) => r.filter.blockHash === undefined)
  const asks = (r: RecordedGetLogs) =>
    [r.filter.address ?? []].flat().some((a) => a.toLowerCase() === manager.toLowerCase())
  return {
    requests: byRange.filter(asks).length,
    logs: byRange.flatMap((r) => r.logs.filter((l) => l.address.toLowerCase() === manager.toLowerCase()))
  }
}

/**
 * The position manager is one of a chain's busiest contracts; the index keeps only the events of the tracked pools'
 * positions (src/indexer/PositionManagerLogs.ts). Through the proxy (test/support/RpcProxy.ts), with an untracked
 * pool's positions churning: the manager logs fetched by range are the tracked positions' only, the manager's
 * eth_getLogs calls do not follow the churn, and the tracked positions' rows equal the chain's `positions(tokenId)` and
 * `ownerOf`. FINALITY_DEPTH 1 and INDEXER_TARGET_LOGS 2: nearly every block is read by range, and a filter whose
 * answers held the churn is cut into many calls (asking for all the manager's events, phase 2 took 19 manager calls and
 * 55 of its logs; now 3 and none).
 */
layer(TestDatabase, { timeout: "300 seconds", excludeTestServices: true })("position manager logs", (it) => {
  it.effect(
    "unrelated positions churning: only the tracked positions' manager logs are fetched, the calls stay bounded, rows equal the chain",
    () =>
      Effect.gen(function* () {
        const { d } = yield* scopedSeededDevnet
        const { gov, buyer, other } = d.accounts
        const proxy = yield* Effect.acquireRelease(
          Effect.promise(() => startRpcProxy(d.anvil.rpcUrl)),
          (p) => Effect.promise(() => p.close())
        )
        const client = makePublicClient(31337, proxy.url, 5_000)
        const indexTo = (head: bigint) =>
          Effect.flatMap(IndexerStatus, (s) => s.awaitBlock(head, "120 seconds")).pipe(
            Effect.provide(indexerLayer(d, { finalityDepth: 1, targetLogsPerRequest: 2 }, { client })),
            Effect.scoped
          )

        // Phase 1: a tracked position's whole life among untracked ones; the indexer starts after it (a backfill).
        const pair = yield* Effect.promise(() => untrackedPool(d))
        const [s0, s1] = BigInt(d.stable) < BigInt(d.uni.weth) ? [d.stable, d.uni.weth] : [d.uni.weth, d.stable]
        const untracked: Array<bigint> = []
        const tracked = yield* Effect.promise(async () => {
          untracked.push(await mintPosition(d, gov, pair.token0, pair.token1, 600, parseEther("1")))
          const id = await mintPosition(d, gov, s0, s1, 887_220, parseEther("1"))
          untracked.push(await mintPosition(d, gov, pair.token0, pair.token1, 1200, parseEther("1")))
          await churn(d, gov, buyer, id, parseEther("0.1"))
          for (const u of untracked) await churn(d, gov, other, u, parseEther("0.1"))
          return id
        })
        const recorded = proxy.recordGetLogs()
        const head1 = yield* headOf(d)
        yield* indexTo(head1)
        const phase1 = managerRangeAnswers(recorded.slice(), d.uni.positionManager)
        const trackedIds = new Set([...phase1.logs.map(tokenIdOf)])
        assert.isTrue(trackedIds.has(tracked), "the tracked position's events were fetched")
        for (const u of untracked) assert.isFalse(trackedIds.has(u), `no log of untracked position ${u}`)

        // Phase 2: the untracked pool's positions churn for 50 blocks; the indexer, restarted, backfills them.
        const before = proxy.counts.methods.eth_getLogs ?? 0
        yield* Effect.promise(async () => {
          for (let i = 0; i < 6; i++) {
            const id = await mintPosition(d, gov, pair.token0, pair.token1, 600 + 60 * i, parseEther("1"))
            await churn(d, gov, other, id, parseEther("0.1"))
            untracked.push(id)
          }
          for (let i = 0; i < 20; i++)
            await write(d.chain, other, d.uni.positionManager, npm, "collect", [
              { tokenId: untracked[i % untracked.length]!, recipient: other, amount0Max: 1n, amount1Max: 1n }
            ])
        })
        const recordedBefore = recorded.length
        const head = yield* headOf(d)
        yield* indexTo(head)
        const phase2 = managerRangeAnswers(recorded.slice(recordedBefore), d.uni.positionManager)
        const churned = yield* Effect.promise(() =>
          d.chain.public.getLogs({ address: d.uni.positionManager, fromBlock: head - 49n, toBlock: head })
        )
        assert.isAtLeast(churned.length, 40, "the manager emitted the churn")
        assert.strictEqual(phase2.logs.length, 0, "no manager log of the churn was fetched")
        console.log(
          `manager eth_getLogs by range: phase 1 ${phase1.requests} (${phase1.logs.length} logs), phase 2 ` +
            `${phase2.requests} of ${(proxy.counts.methods.eth_getLogs ?? 0) - before} eth_getLogs over ${head - head1} blocks ` +
            `(${churned.length} manager logs in the last 50)`
        )
        assert.isAtMost(phase2.requests, 8, "the manager's calls do not follow the churn")

        // Every position of a tracked pool has its row, equal to the chain's; no untracked one has a row.
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ tokenId: string; pool: string; owner: string; liquidity: string }>`
          SELECT token_id::text AS token_id, pool, owner, liquidity::text AS liquidity FROM nft_positions WHERE chain_id = 31337`
        const pools = new Set(
          (yield* sql<{ address: string }>`SELECT address FROM pools WHERE chain_id = 31337`).map((p) => p.address)
        )
        const maxId = untracked.reduce((m, u) => (u > m ? u : m), tracked)
        let checked = 0
        for (let id = 1n; id <= maxId; id++) {
          const [onChain, owner] = yield* Effect.promise(() =>
            Promise.all([
              d.chain.public.readContract({
                address: d.uni.positionManager,
                abi: abis.positionManager,
                functionName: "positions",
                args: [id],
                blockNumber: head
              }),
              d.chain.public.readContract({
                address: d.uni.positionManager,
                abi: abis.positionManager,
                functionName: "ownerOf",
                args: [id],
                blockNumber: head
              })
            ])
          )
          const pool = (yield* Effect.promise(() =>
            d.chain.public.readContract({
              address: d.uni.factory,
              abi: abis.factory,
              functionName: "getPool",
              args: [onChain[2], onChain[3], onChain[4]]
            })
          )).toLowerCase()
          const row = rows.find((r) => r.tokenId === id.toString())
          if (!pools.has(pool)) {
            assert.isUndefined(row, `no row for position ${id} of an untracked pool`)
            continue
          }
          assert.isDefined(row, `position ${id} of tracked pool ${pool}`)
          assert.deepStrictEqual(
            { pool: row!.pool, owner: row!.owner, liquidity: row!.liquidity },
            { pool, owner: owner.toLowerCase(), liquidity: onChain[7].toString() },
            `position ${id}`
          )
          checked++
        }
        assert.isAtLeast(checked, 2, "the seeded position and the new tracked one")
      }).pipe(Effect.scoped),
    300_000
  )
})
