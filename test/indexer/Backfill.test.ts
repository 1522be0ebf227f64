import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Address } from "viem"
import { IndexerStatus } from "../../src/indexer/IndexerStatus.ts"
import { abis } from "../contracts/chain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { type Devnet, poolAbi, seed, startDevnet } from "./devnet.ts"
import { indexerLayer } from "./harness.ts"

let d: Devnet
let seeded: Awaited<ReturnType<typeof seed>>

const read = <A>(f: () => Promise<A>) => Effect.promise(f)

layer(TestDatabase, { timeout: "120 seconds", excludeTestServices: true })(
  "indexer backfill (real anvil, real Postgres)",
  (it) => {
    it.effect(
      "indexes the seeded devnet; rows equal what the chain says at the same block",
      () =>
        Effect.gen(function* () {
          d = yield* read(() => startDevnet())
          yield* Effect.addFinalizer(() => Effect.promise(() => d.anvil.stop()))
          seeded = yield* read(() => seed(d))
          yield* Effect.suspend(() => check).pipe(Effect.provide(indexerLayer(d)))
        }).pipe(Effect.scoped),
      180_000
    )
  }
)

const check = Effect.gen(function* () {
  const head = yield* read(() => d.chain.public.getBlockNumber({ cacheTime: 0 }))
  const status = yield* IndexerStatus
  const reached = yield* status.awaitBlock(head, "30 seconds")
  assert.isTrue(reached.lastIndexedBlock! >= head)
  const sql = yield* SqlClient.SqlClient
  const q = <A>(s: string, p: ReadonlyArray<unknown> = []) =>
    sql.unsafe(s, p).pipe(Effect.map((r) => r as unknown as ReadonlyArray<A>))

  // Launches: the two canonical ones, the third counted as skipped.
  const launches = yield* q<{ token: string }>(`SELECT token FROM launches ORDER BY block_number`)
  assert.deepStrictEqual(
    launches.map((l) => l.token),
    [seeded.a.token.toLowerCase(), seeded.b.token.toLowerCase()]
  )
  const skipped = yield* q<{ n: bigint }>(`SELECT count(*) AS n FROM skipped_launches`)
  assert.strictEqual(Number(skipped[0]!.n), 1)

  // Balances of every holder equal balanceOf at the head; holder counts match.
  for (const token of [seeded.a.token, seeded.b.token]) {
    const rows = yield* q<{ holder: string; balance: string }>(
      `SELECT holder, balance FROM token_balances WHERE token = $1`,
      [token.toLowerCase()]
    )
    assert.isAbove(rows.length, 1)
    for (const r of rows) {
      const onChain = yield* read(() =>
        d.chain.public.readContract({
          address: token,
          abi: abis.erc20,
          functionName: "balanceOf",
          args: [r.holder as Address],
          blockNumber: head
        })
      )
      assert.strictEqual(r.balance, onChain.toString(), `${token} ${r.holder}`)
    }
    const t = yield* q<{ holderCount: number }>(`SELECT holder_count FROM tokens WHERE address = $1`, [
      token.toLowerCase()
    ])
    assert.strictEqual(t[0]!.holderCount, rows.length)
  }

  // Pools: slot0, liquidity and every initialized tick equal the pool's own view.
  const pools = yield* q<{ pool: string; sqrtPriceX96: string; tick: number; liquidity: string }>(
    `SELECT pool, sqrt_price_x96, tick, liquidity FROM pool_states`
  )
  assert.strictEqual(pools.length, 3)
  for (const p of pools) {
    const address = p.pool as Address
    const slot0 = yield* read(() =>
      d.chain.public.readContract({ address, abi: abis.pool, functionName: "slot0", blockNumber: head })
    )
    const liquidity = yield* read(() =>
      d.chain.public.readContract({ address, abi: abis.pool, functionName: "liquidity", blockNumber: head })
    )
    assert.strictEqual(p.sqrtPriceX96, slot0[0].toString())
    assert.strictEqual(p.tick, slot0[1])
    assert.strictEqual(p.liquidity, liquidity.toString())
    const ticks = yield* q<{ tick: number; liquidityGross: string; liquidityNet: string }>(
      `SELECT tick, liquidity_gross, liquidity_net FROM ticks WHERE pool = $1`,
      [p.pool]
    )
    assert.isAbove(ticks.length, 0)
    for (const t of ticks) {
      const onChain = (yield* read(() =>
        d.chain.public.readContract({ address, abi: poolAbi, functionName: "ticks", args: [t.tick], blockNumber: head })
      )) as ReadonlyArray<bigint>
      assert.strictEqual(t.liquidityGross, onChain[0]!.toString())
      assert.strictEqual(t.liquidityNet, onChain[1]!.toString())
    }
  }

  // The NFT position: owner and liquidity as the position manager reports them.
  const nft = yield* q<{ owner: string; liquidity: string }>(
    `SELECT owner, liquidity FROM nft_positions WHERE token_id = $1`,
    [seeded.nftId.toString()]
  )
  const onChain = yield* read(() =>
    d.chain.public.readContract({
      address: d.uni.positionManager,
      abi: abis.positionManager,
      functionName: "positions",
      args: [seeded.nftId],
      blockNumber: head
    })
  )
  const owner = yield* read(() =>
    d.chain.public.readContract({
      address: d.uni.positionManager,
      abi: abis.positionManager,
      functionName: "ownerOf",
      args: [seeded.nftId],
      blockNumber: head
    })
  )
  assert.strictEqual(nft[0]!.liquidity, onChain[7].toString())
  assert.strictEqual(nft[0]!.owner, owner.toLowerCase())

  // Fuel, graduation, fee claims, prices and candles.
  const a = yield* q<{
    fuelCount: number
    fuelGiven: string
    fuelWithdrawn: string
    graduatedAt: Date | null
    priceUsd: number | null
  }>(`SELECT fuel_count, fuel_given, fuel_withdrawn, graduated_at, price_usd FROM tokens WHERE address = $1`, [
    seeded.a.token.toLowerCase()
  ])
  assert.strictEqual(a[0]!.fuelCount, 1)
  assert.strictEqual(a[0]!.fuelGiven, "250000000000000000")
  assert.strictEqual(a[0]!.fuelWithdrawn, "250000000000000000")
  assert.isNotNull(a[0]!.graduatedAt)
  assert.isAbove(a[0]!.priceUsd!, 0)
  const weth = yield* q<{ priceUsd: number }>(`SELECT price_usd FROM tokens WHERE address = $1`, [
    d.uni.weth.toLowerCase()
  ])
  assert.isAbove(weth[0]!.priceUsd, 2000)
  assert.isBelow(weth[0]!.priceUsd, 4000)
  const claims = yield* q<{ n: bigint }>(`SELECT count(*) AS n FROM fee_claims`)
  assert.isAbove(Number(claims[0]!.n), 0)
  const candles = yield* q<{ n: bigint }>(`SELECT count(*) AS n FROM pool_candles WHERE period = '1h'`)
  assert.isAbove(Number(candles[0]!.n), 0)
  const ready = yield* status.get
  assert.isTrue(ready.ready)
})
