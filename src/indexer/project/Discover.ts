import type { DecodedLog } from "../decode/Decode.ts"
import type { CanonicalPoolConfig } from "../fetch/ChainReader.ts"
import { type BatchRows, metaOf, type Timestamps } from "./Rows.ts"
import { addPool, type LaunchConfig, poolConfigOf, type ProjectionState } from "./State.ts"

/** Tick spacing of the factory's default fee tiers (used when a pool is known from Ignited only). */
const spacingOfFee: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }

export const igniteKey = (d: DecodedLog) => `${d.log.blockNumber}:${d.log.logIndex}`

const isConfigUpdate = (d: DecodedLog) => d.kind === "registry" && d.name === "LaunchConfigUpdated"
export const launchConfigOf = (d: DecodedLog): LaunchConfig => {
  const a = d.args as {
    fee: number
    tickLower: number
    tickUpper: number
    sqrtPriceX96: bigint
    sqrtPriceX96Inverted: bigint
  }
  return {
    fee: a.fee,
    tickLower: a.tickLower,
    tickUpper: a.tickUpper,
    sqrtPriceX96: a.sqrtPriceX96,
    sqrtPriceX96Inverted: a.sqrtPriceX96Inverted
  }
}

/**
 * Ignited events of a batch whose canonical configuration is not known from registry events (the registry predates
 * the start block): the canonical check reads those from the chain.
 */
export const ignitionsWithoutConfig = (logs: ReadonlyArray<DecodedLog>, state: ProjectionState) => {
  let known = state.launchConfig !== null
  const out: Array<{ key: string; blockNumber: bigint; tokenIsToken0: boolean }> = []
  for (const d of logs) {
    if (isConfigUpdate(d)) known = true
    else if (d.kind === "launch" && d.name === "Ignited" && !known) {
      out.push({
        key: igniteKey(d),
        blockNumber: d.log.blockNumber,
        tokenIsToken0: (d.args.token as string) < state.weth
      })
    }
  }
  return out
}

/**
 * Discovery, the factory pattern: from the launchpad's and the factory's logs of a range, the new launches (checked
 * against the registry's canonical configuration in force at the event, not trusted from the event's flag), the
 * skipped launches, and the new pools to follow. Runs before the child logs of the same range are fetched, so a
 * token or pool created in a range has its own logs of that range indexed; the result is stored with the batch, so
 * a restart reloads the same addresses (nothing is only in memory).
 */
export const discover = (
  chainId: number,
  logs: ReadonlyArray<DecodedLog>,
  configs: ReadonlyMap<string, CanonicalPoolConfig>,
  state: ProjectionState,
  timestamps: Timestamps,
  batch: BatchRows
): void => {
  const newLaunchPools = new Map<string, DecodedLog>()
  for (const d of logs) {
    if (isConfigUpdate(d)) state.launchConfig = launchConfigOf(d)
    if (d.kind !== "launch" || d.name !== "Ignited") continue
    const a = d.args as {
      token: string
      creator: string
      pool: string
      fee: number
      tickLower: number
      tickUpper: number
      sqrtPriceX96: bigint
      canonical: boolean
      positionId: bigint
    }
    const tokenIsToken0 = a.token < state.weth
    const config =
      state.launchConfig !== null ? poolConfigOf(state.launchConfig, tokenIsToken0) : configs.get(igniteKey(d))
    const matches =
      config !== undefined &&
      config.fee === a.fee &&
      config.sqrtPriceX96 === a.sqrtPriceX96 &&
      config.tickLower === a.tickLower &&
      config.tickUpper === a.tickUpper
    const meta = metaOf(chainId, d, timestamps)
    if (!a.canonical || !matches || state.tokens.has(a.token)) {
      const reason = state.tokens.has(a.token)
        ? "duplicate token"
        : !a.canonical
          ? "not canonical (event flag)"
          : "configuration differs from the registry"
      batch.events.skipped_launches.push({ ...meta, token: a.token, creator: a.creator, pool: a.pool, reason })
      continue
    }
    batch.events.launches.push({
      ...meta,
      token: a.token,
      creator: a.creator,
      pool: a.pool,
      fee: a.fee,
      tick_lower: a.tickLower,
      tick_upper: a.tickUpper,
      sqrt_price_x96: a.sqrtPriceX96,
      token_is_token0: tokenIsToken0,
      position_id: a.positionId
    })
    state.tokens.set(a.token, { decimals: null, isLaunch: true }) // read from the chain before projection
    batch.newTokens.push({ address: a.token, isLaunch: true, firstBlock: d.log.blockNumber })
    batch.newLaunches.push(a.token)
    batch.touchedTokens.add(a.token)
    newLaunchPools.set(a.pool, d)
  }

  const register = (
    d: DecodedLog,
    address: string,
    token0: string,
    token1: string,
    fee: number,
    tickSpacing: number
  ) => {
    if (state.pools.has(address)) return
    const launchToken = newLaunchPools.has(address) ? (newLaunchPools.get(address)!.args.token as string) : undefined
    addPool(
      state,
      { address, token0, token1, fee, sqrtPriceX96: null, reserve0: 0n, reserve1: 0n, tick: null, liquidity: 0n },
      launchToken
    )
    batch.pools.push({ ...metaOf(chainId, d, timestamps), address, token0, token1, fee, tick_spacing: tickSpacing })
    batch.touchedPools.add(address)
    for (const token of [token0, token1]) {
      if (!state.tokens.has(token)) {
        state.tokens.set(token, { decimals: null, isLaunch: false }) // read from the chain before projection
        batch.newTokens.push({ address: token, isLaunch: false, firstBlock: d.log.blockNumber })
      }
    }
  }

  const relevant = (token0: string, token1: string) =>
    (state.baseTokens.has(token0) && state.baseTokens.has(token1)) ||
    state.tokens.get(token0)?.isLaunch === true ||
    state.tokens.get(token1)?.isLaunch === true
  for (const d of logs) {
    if (d.kind !== "factory" || d.name !== "PoolCreated") continue
    const a = d.args as { token0: string; token1: string; fee: number; tickSpacing: number; pool: string }
    if (relevant(a.token0, a.token1)) register(d, a.pool, a.token0, a.token1, a.fee, a.tickSpacing)
  }
  // A launch pool created before its launch (the address is predictable) has no PoolCreated in this range.
  for (const [pool, d] of newLaunchPools) {
    const token = d.args.token as string
    const [token0, token1] = token < state.weth ? [token, state.weth] : [state.weth, token]
    const fee = d.args.fee as number
    register(d, pool, token0, token1, fee, spacingOfFee[fee] ?? 1)
  }
}
