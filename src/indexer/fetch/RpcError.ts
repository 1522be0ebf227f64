import { Data, Duration, Effect, Schedule } from "effect"

/**
 * An RPC failure sorted by what helps (as Ponder sorts its errors into retryable and not):
 * - `range`: the node refused the size of an eth_getLogs answer or range → ask for a smaller range;
 * - `retryable`: transport errors, timeouts, rate limits, 5xx → the same request later;
 * - `fatal`: anything else (a bad request, a reverted call) → no retry helps.
 */
export class RpcError extends Data.TaggedError("RpcError")<{
  readonly kind: "range" | "retryable" | "fatal"
  readonly method: string
  readonly message: string
  readonly cause?: unknown
}> {}

// Phrases providers use for "too many logs / too wide a range" (Alchemy, Infura, QuickNode, geth, erigon, anvil).
const rangePatterns = [
  /block range/i,
  /range (is )?too (large|wide|big)/i,
  /more than \d+ (results|logs)/i,
  /query returned more than/i,
  /response (size|is too large)/i,
  /log response size exceeded/i,
  /exceed(s|ed)? (the )?(max|maximum)/i,
  /too many (results|logs|blocks)/i,
  /limit exceeded/i,
  /payload too large/i,
  /response body exceeded/i // viem's own cap on an HTTP answer (10 MB)
]
const retryablePatterns = [
  /rate ?limit/i,
  /too many requests/i,
  /timeout|timed out/i,
  /ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|network/i,
  /header not found|unknown block/i,
  /internal error/i
]

const describe = (cause: unknown): { text: string; status?: number; code?: number } => {
  const e = cause as { message?: string; details?: string; shortMessage?: string; status?: number; code?: number; name?: string }
  const text = [e?.name, e?.shortMessage, e?.details, e?.message].filter(Boolean).join(" | ") || String(cause)
  return { text, ...(e?.status === undefined ? {} : { status: e.status }), ...(e?.code === undefined ? {} : { code: e.code }) }
}

export const classifyRpcError = (method: string, cause: unknown): RpcError => {
  const { text, status, code } = describe(cause)
  const message = text.slice(0, 500)
  if (method === "eth_getLogs" && (rangePatterns.some((p) => p.test(text)) || code === -32005 && !/rate/i.test(text))) {
    return new RpcError({ kind: "range", method, message, cause })
  }
  if (
    status === 429 || (status !== undefined && status >= 500) || code === -32603 || code === 429 ||
    retryablePatterns.some((p) => p.test(text))
  ) {
    return new RpcError({ kind: "retryable", method, message, cause })
  }
  return new RpcError({ kind: "fatal", method, message, cause })
}

/** Backoff for retryable failures: 100 ms doubling, capped at 10 s per wait, about 2 minutes in all. */
export const rpcRetry = <A, R>(effect: Effect.Effect<A, RpcError, R>): Effect.Effect<A, RpcError, R> =>
  effect.pipe(
    Effect.tapError((e) =>
      e.kind === "retryable" ? Effect.logWarning(`RPC ${e.method} failed, retrying: ${e.message}`) : Effect.void
    ),
    Effect.retry({
      schedule: Schedule.exponential("100 millis").pipe(
        Schedule.modifyDelay(({ duration }) => Effect.succeed(Math.min(Duration.toMillis(duration), 10_000)))
      ),
      while: (e) => e.kind === "retryable",
      times: 20
    })
  )

/** One RPC call as an Effect, failures classified. */
export const rpcCall = <A>(method: string, f: () => Promise<A>): Effect.Effect<A, RpcError> =>
  Effect.tryPromise({ try: f, catch: (cause) => classifyRpcError(method, cause) })
