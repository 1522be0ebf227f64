import type { VersionedDelta, WorkerTask } from "../../../workers/protocol.ts"
import type {
  Address,
  PoolDelta,
  PoolSnapshot,
  PoolState,
  RoutingConfig,
  TokenInfo
} from "../../../workers/routing/types.ts"

type Sync = NonNullable<WorkerTask["sync"]>

/**
 * The quote engine's pool state on the main thread (src/exchange-api/quotes/RouteFinder.ts): the pools and tokens by
 * address, patched in place by each delta (a block costs the changed pools, not a copy of 100k), a version bumped by
 * every load and delta, and the last `capacity` deltas with the versions they bring the state to. A worker that
 * answers `Stale` at version v gets the deltas v+1..current when the log reaches back to v+1, else the whole state
 * (built on demand and kept until the next change, so that several workers catching up share one copy).
 */
export class PoolStateLog {
  private chainId = 0
  private block = 0n
  private readonly pools = new Map<Address, PoolState>()
  private readonly tokens = new Map<Address, TokenInfo>()
  private config: RoutingConfig | undefined
  private current = 0
  private log: Array<VersionedDelta> = []
  private built: PoolSnapshot | undefined

  private readonly capacity: number

  constructor(capacity: number) {
    this.capacity = capacity
  }

  loaded(): boolean {
    return this.config !== undefined
  }

  version(): number {
    return this.current
  }

  blockNumber(): bigint | undefined {
    return this.loaded() ? this.block : undefined
  }

  token(address: string): TokenInfo | undefined {
    return this.tokens.get(address as Address)
  }

  /** A full state replaces everything; the log restarts (no delta bridges a reload). */
  load(snapshot: PoolSnapshot, config: RoutingConfig): void {
    this.chainId = snapshot.chainId
    this.block = snapshot.blockNumber
    this.pools.clear()
    for (const p of snapshot.pools) this.pools.set(p.address, p)
    this.tokens.clear()
    for (const t of snapshot.tokens) this.tokens.set(t.address, t)
    this.config = config
    this.current++
    this.log = []
    this.built = snapshot
  }

  /** Applies a delta (ignored before the first load: the load that follows holds it). Whether it was applied. */
  apply(delta: PoolDelta): boolean {
    if (!this.loaded()) return false
    for (const a of delta.removed) this.pools.delete(a)
    for (const p of delta.pools) this.pools.set(p.address, p)
    for (const t of delta.tokens ?? []) this.tokens.set(t.address, t)
    this.block = delta.blockNumber
    this.current++
    this.log.push({ version: this.current, delta })
    if (this.log.length > this.capacity) this.log.splice(0, this.log.length - this.capacity)
    this.built = undefined
    return true
  }

  /** What a worker at version `have` (-1: none) needs to reach the current version. */
  syncFrom(have: number): Sync {
    const first = this.log[0]?.version
    if (have >= 0 && first !== undefined && have + 1 >= first && have < this.current)
      return { _tag: "Deltas", deltas: this.log.slice(have + 1 - first) }
    return this.full()
  }

  full(): Extract<Sync, { _tag: "Full" }> {
    return { _tag: "Full", snapshot: this.snapshot()!, config: this.config! }
  }

  snapshot(): PoolSnapshot | undefined {
    if (!this.loaded()) return undefined
    this.built ??= {
      chainId: this.chainId,
      blockNumber: this.block,
      pools: [...this.pools.values()],
      tokens: [...this.tokens.values()]
    }
    return this.built
  }
}
