import { NumericSum, type NumericTerm } from "./NumericSum.ts"
import type { BatchRows, Row } from "./Rows.ts"
import type { ProjectionState } from "./State.ts"

const ZERO = "0x0000000000000000000000000000000000000000"
const abs = (x: bigint) => (x < 0n ? -x : x)

interface PoolDelta {
  reserve0: bigint
  reserve1: bigint
  volume0: bigint
  volume1: bigint
  fees0: bigint
  fees1: bigint
  readonly volumeUsd: NumericSum
  swapCount: number
  mintCount: number
  burnCount: number
  lastBlock: bigint
  /** slot0 after the batch's last Swap or Initialize of the pool (null: neither happened, slot0 unchanged). */
  last: { readonly block: bigint; readonly index: number; readonly sqrt: bigint; readonly tick: number } | null
}

/**
 * What a batch adds to each pool's row of `pool_states`, folded from its event rows in memory: reserves (swaps and
 * mints in, collects out), volumes, LP fees of the input side, USD volume (an exact numeric sum, see NumericSum.ts),
 * counters, the last block, and slot0 after its last Swap/Initialize. The store merges them with the same rules as
 * Derive.ts's `derivePoolStates` (sums added, last block widened, slot0 replaced when the batch moved it), which
 * recomputes the same rows from the events after a reorg.
 */
export const foldPoolStates = (
  chainId: number,
  ev: BatchRows["events"],
  swapUsdTerms: ReadonlyArray<NumericTerm>,
  state: ProjectionState
): Array<Row> => {
  const deltas = new Map<string, PoolDelta>()
  const delta = (pool: string, block: bigint) => {
    let d = deltas.get(pool)
    if (d === undefined) {
      d = {
        reserve0: 0n,
        reserve1: 0n,
        volume0: 0n,
        volume1: 0n,
        fees0: 0n,
        fees1: 0n,
        volumeUsd: new NumericSum(),
        swapCount: 0,
        mintCount: 0,
        burnCount: 0,
        lastBlock: block,
        last: null
      }
      deltas.set(pool, d)
    }
    if (block > d.lastBlock) d.lastBlock = block
    return d
  }
  const moveSlot0 = (d: PoolDelta, r: Row) => {
    const block = r.block_number as bigint
    const index = r.log_index as number
    if (d.last === null || block > d.last.block || (block === d.last.block && index > d.last.index)) {
      d.last = { block, index, sqrt: r.sqrt_price_x96 as bigint, tick: r.tick as number }
    }
  }
  for (let i = 0; i < ev.swaps.length; i++) {
    const r = ev.swaps[i]!
    const d = delta(r.pool as string, r.block_number as bigint)
    const a0 = r.amount0 as bigint
    const a1 = r.amount1 as bigint
    const fee = BigInt(state.pools.get(r.pool as string)?.fee ?? 0)
    d.reserve0 += a0
    d.reserve1 += a1
    d.volume0 += abs(a0)
    d.volume1 += abs(a1)
    // div() of numeric and bigint division both truncate; the amount is positive here.
    if (a0 > 0n) d.fees0 += (a0 * fee) / 1_000_000n
    if (a1 > 0n) d.fees1 += (a1 * fee) / 1_000_000n
    d.volumeUsd.add(swapUsdTerms[i]!)
    d.swapCount++
    moveSlot0(d, r)
  }
  for (const r of ev.mints) {
    const d = delta(r.pool as string, r.block_number as bigint)
    d.reserve0 += r.amount0 as bigint
    d.reserve1 += r.amount1 as bigint
    d.mintCount++
  }
  for (const r of ev.burns) delta(r.pool as string, r.block_number as bigint).burnCount++
  for (const r of ev.collects) {
    const d = delta(r.pool as string, r.block_number as bigint)
    d.reserve0 -= r.amount0 as bigint
    d.reserve1 -= r.amount1 as bigint
  }
  for (const r of ev.pool_initializations) moveSlot0(delta(r.pool as string, r.block_number as bigint), r)

  return [...deltas].map(([pool, d]) => ({
    chain_id: chainId,
    pool,
    reserve0: d.reserve0,
    reserve1: d.reserve1,
    volume0: d.volume0,
    volume1: d.volume1,
    fees0: d.fees0,
    fees1: d.fees1,
    volume_usd: d.volumeUsd.text() ?? "0",
    swap_count: d.swapCount,
    mint_count: d.mintCount,
    burn_count: d.burnCount,
    last_block: d.lastBlock,
    sqrt_price_x96: d.last?.sqrt ?? null,
    tick: d.last?.tick ?? null
  }))
}

/**
 * What a batch adds to the balances of launched tokens ((token, holder) → Σ received − Σ sent, the zero address
 * left out, zero sums kept as Derive.ts's `deriveTokens` keeps them) and to their transfer counts.
 */
export const foldBalances = (
  chainId: number,
  transfers: ReadonlyArray<Row>
): { balances: Array<Row>; transferCounts: Array<Row> } => {
  const byToken = new Map<string, { n: number; readonly holders: Map<string, bigint> }>()
  for (const t of transfers) {
    const token = t.token as string
    const value = t.value as bigint
    let entry = byToken.get(token)
    if (entry === undefined) byToken.set(token, (entry = { n: 0, holders: new Map() }))
    entry.n++
    const to = t.to_address as string
    const from = t.from_address as string
    if (to !== ZERO) entry.holders.set(to, (entry.holders.get(to) ?? 0n) + value)
    if (from !== ZERO) entry.holders.set(from, (entry.holders.get(from) ?? 0n) - value)
  }
  const balances: Array<Row> = []
  for (const [token, { holders }] of byToken) {
    for (const [holder, delta] of holders) balances.push({ chain_id: chainId, token, holder, balance: delta })
  }
  return { balances, transferCounts: [...byToken].map(([token, { n }]) => ({ token, n })) }
}
