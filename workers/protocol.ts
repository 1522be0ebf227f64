/**
 * The messages between the main thread (src/exchange-api/quotes/RouteFinder.ts) and the route-finder workers, as Schemas.
 * Values cross the thread boundary by structured clone, which keeps bigints, so the encoded form is the plain data of
 * workers/routing/types.ts. A worker decodes each task with `decodeTask`; the main thread takes a reply with
 * `replyOf` (its tag checked, see there). Failures come back as data (`NoRoute`, …, `Failed`), never as throws.
 *
 * Snapshot versions: the main thread numbers its pool state (a full snapshot, then one version per delta). Every task
 * carries the version it was asked at; a worker that is behind answers `Stale` with the version it holds, and the
 * main thread sends the task again with `sync` attached: the deltas from that version on (`Deltas`, a few changed
 * pools per block, applied to the worker's router in place) when its bounded delta log still reaches back that far,
 * else the whole state (`Full`: at a worker's start, after a gap the log cannot bridge, after a reload). So a worker
 * never quotes against an older block than the main thread knows, and a block costs it the changed pools only.
 * Deltas are also pushed to every thread as they are applied (workers/DeltaPush.ts), so the thread that takes the
 * first quote after a block is usually at its version already and the round trip is the fallback.
 */
import { Schema } from "effect"

const Address = Schema.TemplateLiteral(["0x", Schema.String])
const Int = Schema.Number

export const TickState = Schema.Struct({ index: Int, liquidityNet: Schema.BigInt })

export const PoolState = Schema.Struct({
  address: Address,
  token0: Address,
  token1: Address,
  fee: Int,
  tickSpacing: Int,
  sqrtPriceX96: Schema.BigInt,
  tick: Int,
  liquidity: Schema.BigInt,
  ticks: Schema.Array(TickState)
})

const TokenInfo = Schema.Struct({ address: Address, decimals: Int, symbol: Schema.optional(Schema.String) })

export const PoolSnapshot = Schema.Struct({
  chainId: Int,
  blockNumber: Schema.BigInt,
  pools: Schema.Array(PoolState),
  tokens: Schema.Array(TokenInfo)
})

/** The pools one indexer batch changed (workers/routing/types.ts `PoolDelta`). */
export const PoolDelta = Schema.Struct({
  chainId: Int,
  blockNumber: Schema.BigInt,
  pools: Schema.Array(PoolState),
  removed: Schema.Array(Address),
  tokens: Schema.optional(Schema.Array(TokenInfo))
})

/** A delta with the version it brings the state to (from `version - 1`). */
export const VersionedDelta = Schema.Struct({ version: Int, delta: PoolDelta })
export type VersionedDelta = typeof VersionedDelta.Type

export const RoutingConfig = Schema.Struct({
  wrappedNative: Address,
  baseTokens: Schema.Array(Address),
  connectorsPerToken: Int,
  secondHopsPerConnector: Int,
  maxHops: Schema.Literals([1, 2, 3]),
  maxSplits: Int,
  splitStepPercent: Int,
  poolsPerPair: Int,
  minLiquidity: Schema.BigInt
})

export const QuoteRequest = Schema.Struct({
  tokenIn: Address,
  tokenOut: Address,
  amount: Schema.BigInt,
  type: Schema.Literals(["exactIn", "exactOut"]),
  gasPriceWei: Schema.BigInt,
  maxSplits: Schema.optional(Int)
})

const Hex = Schema.TemplateLiteral(["0x", Schema.String])

/**
 * What the worker needs to encode the found route's calldata (workers/Calldata.ts) in the same task: the router
 * addresses of the chain and the caller's options. Encoding through the Uniswap SDKs (ethers v5 ABI coding, pool
 * address hashing) cost more CPU than routing itself; done here it runs on the worker threads, not the main thread
 * that serves HTTP. Route tokens' decimals and symbols come from `tokens` and the worker's snapshot.
 */
export const CalldataSpec = Schema.Struct({
  chainId: Int,
  swapRouter02: Address,
  universalRouter: Address,
  routerType: Schema.Literals(["swap-router-02", "universal"]),
  slippage: Schema.Struct({ numerator: Schema.BigInt, denominator: Schema.BigInt }),
  recipient: Address,
  deadline: Schema.BigInt,
  useRouterBalance: Schema.Boolean,
  /** viem (default) or the Uniswap SDKs (QUOTE_CALLDATA_ENCODER): same bytes, the SDKs about ten times slower. */
  encoder: Schema.optional(Schema.Literals(["viem", "sdk"])),
  /** tokenIn and tokenOut as the main thread resolved them (they may be missing from the snapshot's token list). */
  tokens: Schema.Array(Schema.Struct({ address: Address, decimals: Int, symbol: Schema.String }))
})
export type CalldataSpec = typeof CalldataSpec.Type

export const WorkerTask = Schema.Struct({
  version: Int,
  /**
   * Present when the worker is behind: `Full`, the whole pool state at `version`; `Deltas`, consecutive deltas
   * ending at `version` (the worker applies those above its own version; the first of them must follow it).
   */
  sync: Schema.NullOr(
    Schema.Union([
      Schema.TaggedStruct("Full", { snapshot: PoolSnapshot, config: RoutingConfig }),
      Schema.TaggedStruct("Deltas", { deltas: Schema.Array(VersionedDelta) })
    ])
  ),
  request: QuoteRequest,
  /** Present when the found route's calldata is wanted too. */
  calldata: Schema.optional(Schema.NullOr(CalldataSpec)),
  /**
   * Epoch ms past which nobody waits for the answer (the quote's QUOTE_TIMEOUT): a task that starts later answers
   * `Expired` without routing, so a queue that grew under a burst drains in microseconds per stale task.
   */
  expiresAt: Schema.optional(Schema.Number),
  /**
   * The BroadcastChannel on which the main thread pushes each delta as it applies it (`VersionedDelta`,
   * workers/DeltaPush.ts): the thread follows it from this task on and applies what it finds there before each task.
   */
  deltaChannel: Schema.optional(Schema.String)
})
export type WorkerTask = typeof WorkerTask.Type

const Hop = Schema.Struct({
  pool: Address,
  tokenIn: Address,
  tokenOut: Address,
  fee: Int,
  sqrtPriceX96Before: Schema.BigInt,
  sqrtPriceX96After: Schema.BigInt,
  liquidity: Schema.BigInt,
  tickBefore: Int,
  ticksCrossed: Int,
  amountIn: Schema.BigInt,
  amountOut: Schema.BigInt
})

const Route = Schema.Struct({
  percent: Schema.Number,
  path: Schema.Array(Address),
  hops: Schema.Array(Hop),
  amountIn: Schema.BigInt,
  amountOut: Schema.BigInt,
  gasEstimate: Schema.BigInt
})

export const QuoteResult = Schema.Struct({
  type: Schema.Literals(["exactIn", "exactOut"]),
  routes: Schema.Array(Route),
  amountIn: Schema.BigInt,
  amountOut: Schema.BigInt,
  gasEstimate: Schema.BigInt,
  gasCostWei: Schema.BigInt,
  gasCostInQuoteToken: Schema.NullOr(Schema.BigInt),
  gasRate: Schema.NullOr(Schema.Struct({ num: Schema.BigInt, den: Schema.BigInt })),
  quoteGasAdjusted: Schema.BigInt,
  priceImpactPpm: Schema.Number,
  blockNumber: Schema.BigInt
})

/** The calldata of a found route, or why the SDK refused it: the route itself (`BuildFailed`) or its encoding. */
export const CalldataOutcome = Schema.Union([
  Schema.TaggedStruct("Encoded", { calldata: Hex, value: Hex, to: Address }),
  Schema.TaggedStruct("BuildFailed", { message: Schema.String }),
  Schema.TaggedStruct("EncodeFailed", { message: Schema.String })
])
export type CalldataOutcome = typeof CalldataOutcome.Type

export const WorkerReply = Schema.Union([
  Schema.TaggedStruct("Found", { quote: QuoteResult, calldata: Schema.NullOr(CalldataOutcome) }),
  Schema.TaggedStruct("NoPoolsAvailable", {}),
  Schema.TaggedStruct("NoRoute", {}),
  Schema.TaggedStruct("InsufficientLiquidity", {}),
  /** The task started after its `expiresAt`: not routed. */
  Schema.TaggedStruct("Expired", {}),
  /** The worker's pool state is behind the task's version (`have`: -1 when it holds none): send again with `sync`. */
  Schema.TaggedStruct("Stale", { have: Int }),
  /** The routing core threw: a bug or corrupt pool data (→ 500 ROUTE_BUILD_FAILED). */
  Schema.TaggedStruct("Failed", { message: Schema.String })
])
export type WorkerReply = typeof WorkerReply.Type

export const decodeTask = Schema.decodeUnknownSync(WorkerTask)
export const decodePushedDelta = Schema.decodeUnknownSync(VersionedDelta)

const REPLY_TAGS: ReadonlySet<string> = new Set(WorkerReply.members.map((member) => member.fields._tag.schema.literal))

/**
 * A worker's reply as the main thread takes it: the return value of workers/route-finder.ts, typed `WorkerReply`
 * there (so the compiler checks its shape), carried by structured clone (which keeps bigints and nesting). Only its
 * tag is checked: a Schema decode of every route and hop ran a fiber and a parse per quote on the thread that
 * serves HTTP (docs/BENCHMARKS.md, bench:quotes over HTTP). Throws on anything that is not a reply.
 */
export const replyOf = (raw: unknown): WorkerReply => {
  const tag = typeof raw === "object" && raw !== null ? (raw as { readonly _tag?: unknown })._tag : undefined
  if (typeof tag !== "string" || !REPLY_TAGS.has(tag)) throw new Error(`not a route-finder reply (tag ${String(tag)})`)
  return raw as WorkerReply
}
