import type { DecodedLog } from "../decode/Decode.ts"
import { foldCandles } from "./Candles.ts"
import { foldBalances, foldPoolStates } from "./Deltas.ts"
import { numericTerm } from "./NumericSum.ts"
import { decimalsOf, human, poolPrice, poolUsdPrices } from "./Prices.ts"
import { argsJson, type BatchRows, metaOf, type Row, type Timestamps } from "./Rows.ts"
import type { PoolInfo, ProjectionState } from "./State.ts"

const abs = (x: bigint) => (x < 0n ? -x : x)

/** Whether a position's range holds the pool's current tick (its liquidity is then in range, as in UniswapV3Pool). */
const inRange = (pool: PoolInfo, tickLower: number, tickUpper: number) =>
  pool.tick !== null && tickLower <= pool.tick && pool.tick < tickUpper

/** The pool's reserves in USD at its current prices; null when either token has no USD path. */
const tvlOf = (
  state: ProjectionState,
  pool: PoolInfo,
  [usd0, usd1]: readonly [number | null, number | null] = poolUsdPrices(state, pool)
): number | null => {
  const h0 = human(pool.reserve0, decimalsOf(state, pool.token0))
  const h1 = human(pool.reserve1, decimalsOf(state, pool.token1))
  return usd0 === null || usd1 === null || h0 === null || h1 === null ? null : h0 * usd0 + h1 * usd1
}

/**
 * The project stage: decoded logs of one batch (sorted by block and log index, discovery already applied) → rows of
 * the event tables. Pure apart from updating `state` (pool prices and reserves, NFT → pool), so that each swap row
 * carries the USD prices, reserves and TVL the pool had right after it.
 */
export const project = (
  chainId: number,
  logs: ReadonlyArray<DecodedLog>,
  state: ProjectionState,
  positionManager: string,
  timestamps: Timestamps,
  batch: BatchRows
): void => {
  const ev = batch.events
  const isLaunch = (token: string) => state.tokens.get(token)?.isLaunch === true
  // Pool Mint/Burn/Collect by the position manager, by transaction: the NFT event that follows belongs to that pool.
  const managerMint = new Map<string, { pool: string; tickLower: number; tickUpper: number }>()
  const pendingTransfers: Array<{ row: Row; tokenId: string }> = []

  for (const d of logs) {
    const a = d.args as Record<string, any>
    const m = () => metaOf(chainId, d, timestamps)
    switch (`${d.kind}.${d.name}`) {
      case "launch.GraduationConditionRecorded":
      case "graduator.Graduated": {
        if (!isLaunch(a.token)) break
        const step = d.name === "Graduated" ? "graduated" : "condition_recorded"
        ev.graduation_events.push({ ...m(), token: a.token, step, at: Number(a.timestamp) })
        batch.touchedTokens.add(a.token)
        break
      }
      case "fuelVault.FuelGiven":
      case "fuelVault.FuelWithdrawn": {
        if (!isLaunch(a.token)) break
        const given = d.name === "FuelGiven"
        ev.fuel_events.push({
          ...m(),
          kind: given ? "given" : "withdrawn",
          token: a.token,
          sender: given ? a.from : null,
          creator: a.creator,
          amount: a.amount
        })
        batch.touchedTokens.add(a.token)
        break
      }
      case "stream.FeesClaimed": {
        if (!isLaunch(a.token)) break
        ev.fee_claims.push({ ...m(), token: a.token, recipient: a.recipient, amount0: a.amount0, amount1: a.amount1 })
        break
      }
      case "token.Transfer": {
        ev.token_transfers.push({
          ...m(),
          token: d.log.address,
          from_address: a.from,
          to_address: a.to,
          value: a.value
        })
        batch.touchedTokens.add(d.log.address)
        break
      }
      case "pool.Initialize": {
        const pool = state.pools.get(d.log.address)
        if (pool === undefined) break
        pool.sqrtPriceX96 = a.sqrtPriceX96
        pool.tick = a.tick
        ev.pool_initializations.push({ ...m(), pool: pool.address, sqrt_price_x96: a.sqrtPriceX96, tick: a.tick })
        batch.touchedPools.add(pool.address)
        break
      }
      case "pool.Swap": {
        const pool = state.pools.get(d.log.address)
        if (pool === undefined) break
        pool.sqrtPriceX96 = a.sqrtPriceX96
        pool.tick = a.tick
        pool.liquidity = a.liquidity
        pool.reserve0 += a.amount0
        pool.reserve1 += a.amount1
        const [usd0, usd1] = poolUsdPrices(state, pool)
        const d0 = decimalsOf(state, pool.token0)
        const d1 = decimalsOf(state, pool.token1)
        const h0 = human(abs(a.amount0), d0)
        const h1 = human(abs(a.amount1), d1)
        const amountUsd = usd0 !== null && h0 !== null ? h0 * usd0 : usd1 !== null && h1 !== null ? h1 * usd1 : null
        const tvlUsd = tvlOf(state, pool, [usd0, usd1])
        ev.swaps.push({
          ...m(),
          pool: pool.address,
          sender: a.sender,
          recipient: a.recipient,
          amount0: a.amount0,
          amount1: a.amount1,
          sqrt_price_x96: a.sqrtPriceX96,
          liquidity: a.liquidity,
          tick: a.tick,
          price: poolPrice(state, pool) ?? 0,
          token0_price_usd: usd0,
          token1_price_usd: usd1,
          amount_usd: amountUsd,
          reserve0: pool.reserve0,
          reserve1: pool.reserve1,
          tvl_usd: tvlUsd
        })
        batch.touchedPools.add(pool.address)
        break
      }
      case "pool.Mint": {
        const pool = state.pools.get(d.log.address)
        if (pool === undefined) break
        pool.reserve0 += a.amount0
        pool.reserve1 += a.amount1
        if (inRange(pool, a.tickLower, a.tickUpper)) pool.liquidity += a.amount
        ev.mints.push({
          ...m(),
          pool: pool.address,
          sender: a.sender,
          owner: a.owner,
          tick_lower: a.tickLower,
          tick_upper: a.tickUpper,
          amount: a.amount,
          amount0: a.amount0,
          amount1: a.amount1,
          tvl_usd: tvlOf(state, pool)
        })
        if (a.owner === positionManager) {
          managerMint.set(d.log.transactionHash, { pool: pool.address, tickLower: a.tickLower, tickUpper: a.tickUpper })
        }
        batch.touchedPools.add(pool.address)
        break
      }
      case "pool.Burn": {
        // The burned amounts stay in the pool (owed to the position) until a Collect takes them out.
        const pool = state.pools.get(d.log.address)
        if (pool === undefined) break
        if (inRange(pool, a.tickLower, a.tickUpper)) pool.liquidity -= a.amount
        ev.burns.push({
          ...m(),
          pool: pool.address,
          owner: a.owner,
          tick_lower: a.tickLower,
          tick_upper: a.tickUpper,
          amount: a.amount,
          amount0: a.amount0,
          amount1: a.amount1,
          tvl_usd: tvlOf(state, pool)
        })
        batch.touchedPools.add(pool.address)
        break
      }
      case "pool.Collect": {
        const pool = state.pools.get(d.log.address)
        if (pool === undefined) break
        pool.reserve0 -= a.amount0
        pool.reserve1 -= a.amount1
        ev.collects.push({
          ...m(),
          pool: pool.address,
          owner: a.owner,
          recipient: a.recipient,
          tick_lower: a.tickLower,
          tick_upper: a.tickUpper,
          amount0: a.amount0,
          amount1: a.amount1,
          tvl_usd: tvlOf(state, pool)
        })
        batch.touchedPools.add(pool.address)
        break
      }
      case "positionManager.IncreaseLiquidity": {
        const tokenId = String(a.tokenId)
        const mint = managerMint.get(d.log.transactionHash)
        const pool = mint?.pool ?? state.positions.get(tokenId)
        if (pool === undefined) break
        state.positions.set(tokenId, pool)
        ev.position_events.push({
          ...m(),
          token_id: a.tokenId,
          kind: "increase",
          pool,
          tick_lower: mint?.tickLower ?? null,
          tick_upper: mint?.tickUpper ?? null,
          liquidity: a.liquidity,
          amount0: a.amount0,
          amount1: a.amount1,
          from_address: null,
          to_address: null
        })
        break
      }
      case "positionManager.DecreaseLiquidity":
      case "positionManager.Collect": {
        const pool = state.positions.get(String(a.tokenId))
        if (pool === undefined) break
        const decrease = d.name === "DecreaseLiquidity"
        ev.position_events.push({
          ...m(),
          token_id: a.tokenId,
          kind: decrease ? "decrease" : "collect",
          pool,
          tick_lower: null,
          tick_upper: null,
          liquidity: decrease ? a.liquidity : null,
          amount0: a.amount0,
          amount1: a.amount1,
          from_address: null,
          to_address: decrease ? null : a.recipient
        })
        break
      }
      case "positionManager.Transfer": {
        // The mint Transfer comes before the IncreaseLiquidity that tells the pool: resolved after the loop.
        pendingTransfers.push({
          tokenId: String(a.tokenId),
          row: {
            ...m(),
            token_id: a.tokenId,
            kind: "transfer",
            tick_lower: null,
            tick_upper: null,
            liquidity: null,
            amount0: null,
            amount1: null,
            from_address: a.from,
            to_address: a.to
          }
        })
        break
      }
      default: {
        if (d.kind === "registry") ev.registry_events.push({ ...m(), name: d.name, args: argsJson(d.args) })
      }
    }
  }
  for (const { tokenId, row } of pendingTransfers) {
    const pool = state.positions.get(tokenId)
    if (pool !== undefined) ev.position_events.push({ ...row, pool })
  }
  ev.position_events.sort((x, y) =>
    x.block_number === y.block_number
      ? (x.log_index as number) - (y.log_index as number)
      : (x.block_number as bigint) < (y.block_number as bigint)
        ? -1
        : 1
  )
  // Each swap's USD size as `amount_usd::numeric` once, for the candles and the pool's volume.
  const usdTerms = ev.swaps.map((s) => numericTerm(s.amount_usd as number | null))
  const candles = foldCandles(chainId, ev.swaps, usdTerms, state)
  const balances = foldBalances(chainId, ev.token_transfers)
  batch.folded = {
    poolCandles: candles.pool,
    tokenCandles: candles.token,
    poolStates: foldPoolStates(chainId, ev, usdTerms, state),
    balances: balances.balances,
    transferCounts: balances.transferCounts
  }
}
