import { NumericSum, type NumericTerm } from "./NumericSum.ts"
import type { Row } from "./Rows.ts"
import type { ProjectionState } from "./State.ts"

/** The candle periods and their length in seconds (bucket starts are multiples of it since 2000-01-01 UTC). */
export const candlePeriods = [
  ["1h", 3_600],
  ["1d", 86_400]
] as const

/** 2000-01-01T00:00:00Z, the origin Derive.ts bins from (a multiple of both periods, so floor(ts / step) works). */
const ORIGIN = 946_684_800

const bucketOf = (ts: number, step: number) => ORIGIN + Math.floor((ts - ORIGIN) / step) * step

const abs = (x: bigint) => (x < 0n ? -x : x)

interface PoolCandle {
  readonly pool: string
  readonly period: string
  readonly bucket: number
  readonly open: number
  high: number
  low: number
  close: number
  volume0: bigint
  volume1: bigint
  readonly volumeUsd: NumericSum
  tvlUsd: number | null
  swapCount: number
}

interface TokenCandle {
  readonly token: string
  readonly period: string
  readonly bucket: number
  open: number | null
  high: number | null
  low: number | null
  close: number | null
  volume: bigint
  readonly volumeUsd: NumericSum
  swapCount: number
}

/**
 * Hourly and daily candles of one batch, folded from its swap rows (in chain order) in memory: one row per pool or
 * token, period and bucket, with the batch's part of the candle (open = first, close = last, high/low, sums, count).
 * The store merges them into existing rows with the same rules Derive.ts's SQL uses (open kept, high/low widened,
 * close replaced, sums added), and after a reorg that SQL recomputes the touched candles from the swaps: both give
 * the same rows, which the reorg tests check. Token candles are in USD: the swap's USD price of that token (null
 * prices are skipped), its amount, and the swap's USD size.
 */
export const foldCandles = (
  chainId: number,
  swaps: ReadonlyArray<Row>,
  usdTerms: ReadonlyArray<NumericTerm>,
  state: ProjectionState
): { readonly pool: Array<Row>; readonly token: Array<Row> } => {
  const pools: Array<PoolCandle> = []
  const tokens: Array<TokenCandle> = []
  // The candle each pool / token is filling, per period: swaps come in chain order, so a candle is only left for the
  // next bucket (never reopened), and a key lookup per swap and side is enough.
  const poolCurrent = new Map<string, Array<PoolCandle | undefined>>()
  const tokenCurrent = new Map<string, Array<TokenCandle | undefined>>()

  const tokenSide = (
    token: string,
    p: number,
    bucket: number,
    price: number | null,
    volume: bigint,
    usd: NumericTerm
  ) => {
    let current = tokenCurrent.get(token)
    if (current === undefined) tokenCurrent.set(token, (current = [undefined, undefined]))
    let c = current[p]
    if (c === undefined || c.bucket !== bucket) {
      c = {
        token,
        period: candlePeriods[p]![0],
        bucket,
        open: null,
        high: null,
        low: null,
        close: null,
        volume: 0n,
        volumeUsd: new NumericSum(),
        swapCount: 0
      }
      current[p] = c
      tokens.push(c)
    }
    if (price !== null) {
      if (c.open === null) c.open = price
      if (c.high === null || price > c.high) c.high = price
      if (c.low === null || price < c.low) c.low = price
      c.close = price
    }
    c.volume += volume
    c.volumeUsd.add(usd)
    c.swapCount++
  }

  for (let i = 0; i < swaps.length; i++) {
    const s = swaps[i]!
    const pool = s.pool as string
    const info = state.pools.get(pool)
    const ts = s.block_timestamp as number
    const price = s.price as number
    const usd = usdTerms[i]!
    const v0 = abs(s.amount0 as bigint)
    const v1 = abs(s.amount1 as bigint)
    let current = poolCurrent.get(pool)
    if (current === undefined) poolCurrent.set(pool, (current = [undefined, undefined]))
    for (let p = 0; p < candlePeriods.length; p++) {
      const bucket = bucketOf(ts, candlePeriods[p]![1])
      let c = current[p]
      if (c === undefined || c.bucket !== bucket) {
        c = {
          pool,
          period: candlePeriods[p]![0],
          bucket,
          open: price,
          high: price,
          low: price,
          close: price,
          volume0: 0n,
          volume1: 0n,
          volumeUsd: new NumericSum(),
          tvlUsd: null,
          swapCount: 0
        }
        current[p] = c
        pools.push(c)
      }
      if (price > c.high) c.high = price
      if (price < c.low) c.low = price
      c.close = price
      c.volume0 += v0
      c.volume1 += v1
      c.volumeUsd.add(usd)
      c.tvlUsd = s.tvl_usd as number | null
      c.swapCount++
      // As Derive.ts's join with pools: a swap of a pool without its tokens known has no token candles.
      if (info !== undefined) {
        tokenSide(info.token0, p, bucket, s.token0_price_usd as number | null, v0, usd)
        tokenSide(info.token1, p, bucket, s.token1_price_usd as number | null, v1, usd)
      }
    }
  }

  return {
    pool: pools.map((c) => ({
      chain_id: chainId,
      pool: c.pool,
      period: c.period,
      bucket_start: c.bucket,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume0: c.volume0,
      volume1: c.volume1,
      volume_usd: c.volumeUsd.text(),
      tvl_usd: c.tvlUsd,
      swap_count: c.swapCount
    })),
    token: tokens.map((c) => ({
      chain_id: chainId,
      token: c.token,
      period: c.period,
      bucket_start: c.bucket,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: c.volume,
      volume_usd: c.volumeUsd.text(),
      swap_count: c.swapCount
    }))
  }
}
