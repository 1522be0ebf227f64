/**
 * The Piscina worker entry (thin): decode the task, apply the deltas pushed since the last task (./DeltaPush.ts),
 * bring the router to the task's version (a full snapshot, or the deltas since the worker's own version applied in
 * place: workers/protocol.ts), quote, encode the found route's calldata when the task asks for it, return the outcome
 * as data. `makeEngine` is also what RouteFinder.layerInline runs on the main thread.
 */
import { isMainThread } from "node:worker_threads"
import { buildMethodParameters, loadSdks, RouteBuildError } from "./Calldata.ts"
import { followPushedDeltas, warmUpPushPaths } from "./DeltaPush.ts"
import { postGcPauses } from "./GcPauses.ts"
import {
  type CalldataOutcome,
  type CalldataSpec,
  decodePushedDelta,
  decodeTask,
  type VersionedDelta,
  type WorkerReply,
  type WorkerTask
} from "./protocol.ts"
import { makeRouter } from "./router.ts"
import type { QuoteResult, QuoteToken, Router, TokenInfo } from "./routing/types.ts"
import { warmUpPushedDelta, warmUpTasks } from "./WarmUpTasks.ts"

export const makeEngine = () => {
  let router: Router | undefined
  let tokens = new Map<string, QuoteToken>()
  let version = -1
  const known = (t: TokenInfo): QuoteToken => ({ address: t.address, decimals: t.decimals, symbol: t.symbol ?? "" })

  /** Applies consecutive deltas (the first must follow `version`) to the router in place. */
  const applyInOrder = (deltas: ReadonlyArray<VersionedDelta>) => {
    for (const { version: next, delta } of deltas) {
      router!.apply(delta)
      for (const t of delta.tokens ?? []) tokens.set(t.address, known(t))
      version = next
    }
  }

  /**
   * A delta pushed on the channel (./DeltaPush.ts), applied when it is the next one; else dropped (the next task
   * catches up through `Stale`). A delta that fails to apply may leave the router half patched: the state is dropped
   * and the next task reloads it whole.
   */
  const pushed = (message: unknown) => {
    try {
      const next = decodePushedDelta(message)
      if (router !== undefined && next.version === version + 1) applyInOrder([next])
    } catch {
      router = undefined
      version = -1
    }
  }
  const pushes = followPushedDeltas(pushed)

  /** Brings the router to the task's version when the task carries what it takes; else it stays behind (`Stale`). */
  const catchUp = (task: WorkerTask) => {
    const sync = task.sync
    // Several tasks answered Stale at once each come back with a sync: the first one brings the worker up to date.
    if (sync === null || (router !== undefined && version >= task.version)) return
    if (sync._tag === "Full") {
      router = makeRouter(sync.snapshot, sync.config)
      tokens = new Map(sync.snapshot.tokens.map((t) => [t.address, known(t)]))
      version = task.version
      return
    }
    if (router === undefined) return
    const pending = sync.deltas.filter((d) => d.version > version)
    // A gap (deltas this worker never saw are gone from the main thread's log): the main thread sends `Full`.
    if (pending[0]?.version !== version + 1) return
    applyInOrder(pending)
  }

  return (input: unknown): WorkerReply => {
    let task
    try {
      task = decodeTask(input)
    } catch (error) {
      return { _tag: "Failed", message: `bad task: ${String(error)}` }
    }
    try {
      pushes.beforeTask(task.deltaChannel)
      catchUp(task)
      // A worker ahead of the task (synced by a later task) quotes on its newer state: versions only grow.
      if (router === undefined || version < task.version)
        return { _tag: "Stale", have: router === undefined ? -1 : version }
      // After a sync (its pool state is kept whatever the clock says: loading it was the costly part).
      if (task.expiresAt !== undefined && Date.now() > task.expiresAt) return { _tag: "Expired" }
      const outcome = router.quote(task.request)
      if (outcome._tag !== "Found") return { _tag: outcome._tag }
      const spec = task.calldata ?? null
      return {
        _tag: "Found",
        quote: outcome.quote,
        calldata: spec === null ? null : encode(spec, outcome.quote, tokens)
      }
    } catch (error) {
      return { _tag: "Failed", message: error instanceof Error ? error.message : String(error) }
    }
  }
}

/** The found route's calldata (workers/Calldata.ts: viem, or the Uniswap SDKs), or why it could not be made. */
const encode = (spec: CalldataSpec, quote: QuoteResult, known: ReadonlyMap<string, QuoteToken>): CalldataOutcome => {
  try {
    const chain = { chainId: spec.chainId, swapRouter02: spec.swapRouter02, universalRouter: spec.universalRouter }
    const tokens = new Map(known)
    for (const t of spec.tokens) tokens.set(t.address, t)
    // An intermediate the snapshot has no metadata for: decimals and symbol are display fields of the SDK's Token;
    // calldata carries raw amounts and addresses only, so 18 changes no byte of it.
    for (const a of quote.routes.flatMap((r) => r.path))
      if (!tokens.has(a)) tokens.set(a, { address: a, decimals: 18, symbol: "" })
    return { _tag: "Encoded", ...buildMethodParameters(chain, quote, tokens, spec) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return error instanceof RouteBuildError ? { _tag: "BuildFailed", message } : { _tag: "EncodeFailed", message }
  }
}

/**
 * One encoding of a synthetic one-pool trade for each router type and encoder: viem and the SDKs (the fallback) build
 * their ABI coders and the JIT compiles the encoding paths here, at thread start, not in the first real quote's budget.
 */
function warmUpEncoding() {
  const [a, b] = ["0x0000000000000000000000000000000000000a01", "0x0000000000000000000000000000000000000a02"] as const
  const price = 1n << 96n // tick 0
  const hop = {
    pool: "0x0000000000000000000000000000000000000a03",
    tokenIn: a,
    tokenOut: b,
    fee: 3000,
    sqrtPriceX96Before: price,
    sqrtPriceX96After: price,
    liquidity: 10n ** 18n,
    tickBefore: 0,
    ticksCrossed: 0,
    amountIn: 1000n,
    amountOut: 990n
  } as const
  const quote: QuoteResult = {
    type: "exactIn",
    amountIn: 1000n,
    amountOut: 990n,
    gasEstimate: 0n,
    gasCostWei: 0n,
    gasCostInQuoteToken: null,
    gasRate: null,
    quoteGasAdjusted: 990n,
    priceImpactPpm: 0,
    blockNumber: 0n,
    routes: [{ percent: 100, path: [a, b], hops: [hop], amountIn: 1000n, amountOut: 990n, gasEstimate: 0n }]
  }
  const tokens = new Map([a, b].map((t) => [t, { address: t, decimals: 18, symbol: "" }]))
  for (const routerType of ["swap-router-02", "universal"] as const)
    for (const encoder of ["viem", "sdk"] as const) {
      encode(
        {
          encoder,
          chainId: 1,
          swapRouter02: "0x0000000000000000000000000000000000000a04",
          universalRouter: "0x0000000000000000000000000000000000000a05",
          routerType,
          slippage: { numerator: 50n, denominator: 10_000n },
          recipient: a,
          deadline: 0n,
          useRouterBalance: false,
          tokens: []
        },
        quote,
        tokens
      )
    }
}

/**
 * `rounds` rounds of ./WarmUpTasks.ts on an engine of their own (this thread's real state is untouched), and one
 * decode of a pushed delta: the decoders, the graph's load and `apply`, the route search and the swap maths are
 * compiled here, not in the first real quote after a block. Answers each task's reply tag (tests check they are
 * all `Found`: a warm-up that stopped at `NoRoute` would skip the paths it is for).
 */
export const warmUpRouting = (rounds: number): ReadonlyArray<string> => {
  const tags: Array<string> = []
  for (let round = 0; round < rounds; round++) {
    const engine = makeEngine()
    for (const task of warmUpTasks()) tags.push(engine(task)._tag)
    decodePushedDelta(warmUpPushedDelta())
  }
  return tags
}

/** Rounds of the routing warm-up at thread start: ~30 ms of CPU for 20 (a thread's start loads the SDKs, ~1 s). */
const WARM_UP_ROUNDS = 20
/** Pushes taken by the message event at thread start (workers/DeltaPush.ts `warmUpPushPaths`). */
const WARM_UP_PUSH_EVENTS = 5

// In a worker thread, load the SDKs while the module is imported, before the thread takes its first task: a thread
// that replaces one stopped by QUOTE_TIMEOUT must not spend its first quote's budget on a second of loading (which
// would time out, stop that thread too, and so on while the load lasts).
if (!isMainThread) {
  postGcPauses(process.env.QUOTE_WORKER_GC_CHANNEL)
  loadSdks()
  warmUpEncoding()
  warmUpRouting(WARM_UP_ROUNDS)
  warmUpPushPaths(warmUpPushedDelta(), WARM_UP_PUSH_EVENTS, (message) => decodePushedDelta(message))
}

const engine = makeEngine()
export default engine
