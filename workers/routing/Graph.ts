/**
 * The in-memory pool graph: every pool of one chain by address and by token, kept current by deltas. Candidate
 * pools per token pair (ranked by in-range liquidity, at most `poolsPerPair`, none below `minLiquidity`) and the
 * candidate routes built from them are cached, and the caches are dropped whenever a delta moves the block: a
 * quote never sees a ranking computed from another block's state.
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
    if (delta.chainId !== this.chainId) throw new Error(`delta for chain ${delta.chainId} applied to chain ${this.chainId}`)
    for (const address of delta.removed) this.remove(address)
    for (const pool of delta.pools) {
      this.remove(pool.address)
      this.put(pool)
    }
    this.block = delta.blockNumber
    this.candidates.clear()
    this.memo.clear()
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
      found.sort((x, y) => (x.liquidity === y.liquidity ? (x.address < y.address ? -1 : 1) : x.liquidity > y.liquidity ? -1 : 1))
      list = found.slice(0, this.config.poolsPerPair)
      this.candidates.set(key, list)
    }
    return list
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
