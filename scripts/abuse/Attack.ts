import type { Address } from "viem"

/** What the attacks are pointed at: the stack `bench:abuse` started. */
export interface Target {
  readonly client: string
  readonly exchange: string
  readonly indexer: string
  readonly rpcUrl: string
  readonly chainId: number
  /** The app process, for its RSS. */
  readonly pid: number
  /** The app's inspector port (`--inspect`), for its heap after a GC (AppHeap.ts). */
  readonly inspectPort: number
  /** Launched tokens of the seeded devnet (canonical pools). */
  readonly tokens: ReadonlyArray<Address>
  readonly weth: Address
}

/** One attack's result: how it was answered and what it did. */
export interface Result {
  /** The answers, tallied (`200×120, 429 RATE_LIMITED×30`). */
  readonly answered: string
  readonly refused: boolean
  /** Its effect: time to answer, memory, what got through. */
  readonly effect: string
  /**
   * Periods within its run when the bench itself, not the attack, held the app (the full GCs forced through the
   * inspector to read the heap, AppHeap.ts): a well-behaved request in flight then is not counted under the attack.
   */
  readonly excluded?: ReadonlyArray<{ readonly from: number; readonly to: number }>
}

export interface Attack {
  /** The finding of issue 23 it replays (H1, M3, …). */
  readonly finding: string
  readonly name: string
  /** The answer that counts as refused. */
  readonly expected: string
  /** false: printed, but a miss does not fail the run (its fix is not on main yet). */
  readonly required: boolean
  /**
   * Sent from many addresses, each within every per-address limit: what it costs is capacity, which no per-IP limit
   * refuses. The p99 ratio is printed with and without such attacks.
   */
  readonly volumetric?: boolean
  readonly run: (target: Target) => Promise<Result>
}
