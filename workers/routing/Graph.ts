/**
 * The in-memory pool graph: every pool of one chain by address and by token, kept current by deltas. Candidate
 * pools per token pair (ranked by in-range liquidity, at most `poolsPerPair`, none below `minLiquidity`) and the
 * candidate routes built from them are cached; a delta drops what its pools feed (the candidates of their pairs, the
 * depth rankings of their tokens) and every route and rate built on top, so a quote never sees a ranking computed
 * from another block's state, and a block of ~30 changed pools does not make the next quote re-rank WETH's pools. `deepestPartners` ranks the tokens paired with a
 * token by depth, for the connector intermediates of Routes.ts.
 */
import type { Address, PoolDelta, PoolSnapshot, PoolState, RoutingConfig, TokenInfo } from "./types.ts"

const pairKey = (a: Address, b: Address) => (a < b ? `${a}|${b}` : `${b}|${a}`)

export class PoolGraph {
  readonly chainId: number
  private block: bigint
  private readonly pools = new Map<Address, PoolState>()
  private readonly byToken = new Map<Address, Set<Address>>()
  private readonly tokens = new Map<Address, TokenInfo>()
  private readonly candidates = new Map<string, ReadonlyArray<PoolState>>()
  /** Per-block memo for derived data (candidate routes per pair, gas price conversions); cleared with the block. */
  readonly memo = new Map<string, unknown>()
  /**
   * Depth rankings (`deepestPartners`) by token, then limit: kept across blocks until one of the token's pools
   * changes. Apart from the memo so that a delta drops its tokens' rankings by key, not by a scan of every entry: the
   * rankings of a long-running worker reach one per token quoted (tens of thousands at 100k pools).
   */
  private readonly partners = new Map<Address, Map<number, ReadonlyArray<Address>>>()
  private readonly config: RoutingConfig

  constructor(snapshot: PoolSnapshot, config: RoutingConfig) {
    this.config = config
    this.chainId = snapshot.chainId
    this.block = snapshot.blockNumber
    for (const token of snapshot.tokens) this.tokens.set(token.address, token)
    for (const pool of snapshot.pools) this.put(pool)
  }

  get blockNumber(): bigint {
    return this.block
  }

  apply(delta: PoolDelta): void {
    if (delta.chainId !== this.chainId)
      throw new Error(`delta for chain ${delta.chainId} applied to chain ${this.chainId}`)
    for (const token of delta.tokens ?? []) this.tokens.set(token.address, token)
    // The tokens and pairs of every changed pool, as it was and as it is.
    const tokens = new Set<Address>()
    const pairs = new Set<string>()
    const touch = (pool: PoolState | undefined) => {
      if (pool === undefined) return
      tokens.add(pool.token0)
      tokens.add(pool.token1)
      pairs.add(pairKey(pool.token0, pool.token1))
    }
    for (const address of delta.removed) {
      touch(this.pools.get(address))
      this.remove(address)
    }
    for (const pool of delta.pools) {
      touch(this.pools.get(pool.address))
      touch(pool)
      this.remove(pool.address)
      this.put(pool)
    }
    this.block = delta.blockNumber
    for (const key of pairs) this.candidates.delete(key)
    // Routes and rates combine many pairs and rebuild cheaply from the kept candidates: all dropped. A depth ranking
    // stays when none of its token's pools changed.
    this.memo.clear()
    for (const token of tokens) this.partners.delete(token)
  }

  pool(address: Address): PoolState | undefined {
    return this.pools.get(address)
  }

  token(address: Address): TokenInfo | undefined {
    return this.tokens.get(address)
  }

  /** Whether any usable pool (enough liquidity) touches the token. */
  hasUsablePool(token: Address): boolean {
    for (const address of this.byToken.get(token) ?? []) {
      const pool = this.pools.get(address)
      if (pool !== undefined && this.usable(pool)) return true
    }
    return false
  }

  /** The best `poolsPerPair` usable pools between two tokens, most in-range liquidity first. */
  pairPools(a: Address, b: Address): ReadonlyArray<PoolState> {
    const key = pairKey(a, b)
    let list = this.candidates.get(key)
    if (list === undefined) {
      const found: Array<PoolState> = []
      const [fewer, other] = (this.byToken.get(a)?.size ?? 0) <= (this.byToken.get(b)?.size ?? 0) ? [a, b] : [b, a]
      for (const address of this.byToken.get(fewer) ?? []) {
        const pool = this.pools.get(address)!
        if ((pool.token0 === other || pool.token1 === other) && this.usable(pool)) found.push(pool)
      }
      found.sort((x, y) =>
        x.liquidity === y.liquidity ? (x.address < y.address ? -1 : 1) : x.liquidity > y.liquidity ? -1 : 1
      )
      list = found.slice(0, this.config.poolsPerPair)
      this.candidates.set(key, list)
    }
    return list
  }

  /**
   * Tokens paired with `token` in usable pools, deepest first, at most `limit`. A partner's depth is that of its
   * deepest pool with `token`, measured as the pool's in-range (virtual) reserve of `token` at the current price:
   * L/√P when `token` is token0, L·√P when token1. Raw liquidity L would not do here: it is √(x·y) in the units of
   * two different tokens per pair, so a pool against a 6-decimal token would rank 10^6 below an equal pool against
   * an 18-decimal one. The reserve is in units of `token` for every pool. Floats suffice for a ranking. Memoised per
   * block.
   */
  deepestPartners(token: Address, limit: number): ReadonlyArray<Address> {
    let byLimit = this.partners.get(token)
    const cached = byLimit?.get(limit)
    if (cached !== undefined) return cached
    const depth = new Map<Address, number>()
    for (const address of this.byToken.get(token) ?? []) {
      const pool = this.pools.get(address)!
      if (!this.usable(pool)) continue
      const sqrtPrice = Number(pool.sqrtPriceX96) / 2 ** 96
      const reserve = pool.token0 === token ? Number(pool.liquidity) / sqrtPrice : Number(pool.liquidity) * sqrtPrice
      const partner = pool.token0 === token ? pool.token1 : pool.token0
      if (reserve > (depth.get(partner) ?? -1)) depth.set(partner, reserve)
    }
    // Top `limit` by insertion: WETH may have thousands of partners, and only a handful are wanted.
    const before = ([a, x]: readonly [Address, number], [b, y]: readonly [Address, number]) =>
      x > y || (x === y && a < b)
    const top: Array<readonly [Address, number]> = []
    for (const entry of depth) {
      if (limit <= 0 || (top.length === limit && !before(entry, top[limit - 1]!))) continue
      if (top.length === limit) top.pop()
      let i = top.length
      top.push(entry)
      for (; i > 0 && before(entry, top[i - 1]!); i--) top[i] = top[i - 1]!
      top[i] = entry
    }
    const ranked = top.map(([partner]) => partner)
    if (byLimit === undefined) this.partners.set(token, (byLimit = new Map()))
    byLimit.set(limit, ranked)
    return ranked
  }

  private usable(pool: PoolState): boolean {
    return pool.liquidity > 0n && pool.liquidity >= this.config.minLiquidity && pool.token0 !== pool.token1
  }

  private put(pool: PoolState): void {
    this.pools.set(pool.address, pool)
    for (const token of [pool.token0, pool.token1]) {
      let set = this.byToken.get(token)
      if (set === undefined) this.byToken.set(token, (set = new Set()))
      set.add(pool.address)
    }
  }

  private remove(address: Address): void {
    const pool = this.pools.get(address)
    if (pool === undefined) return
    this.pools.delete(address)
    for (const token of [pool.token0, pool.token1]) this.byToken.get(token)?.delete(address)
  }
}
