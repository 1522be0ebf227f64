import { redactUrlsIn } from "../../platform/RedactUrl.ts"
import { Data, Duration, Effect } from "effect"

/**
 * An RPC failure sorted by what helps (as Ponder sorts its errors into retryable and not):
 * - `range`: the node refused the size of an eth_getLogs answer or range, or it timed out → ask for a smaller range
 *   (`rangeHint`: the size the provider said it accepts, when it said one);
 * - `retryable`: transport errors, timeouts, rate limits, 5xx → the same request later (not before `retryAfterMs`);
 * - `fatal`: anything else (a bad request, a reverted call) → no retry helps;
 * - `replaced`: a block asked for by its hash is no longer the chain's at its height (a reorg replaced it since its
 *   header was read; never from the classification, see BlockLogs.ts) → read the headers again.
 */
export class RpcError extends Data.TaggedError("RpcError")<{
  readonly kind: "range" | "retryable" | "fatal" | "replaced"
  readonly method: string
  readonly message: string
  readonly cause?: unknown
  /** Blocks per eth_getLogs request the provider says it accepts ("this block range should work: [a, b]"). */
  readonly rangeHint?: number | undefined
  /** The provider's Retry-After, in milliseconds. */
  readonly retryAfterMs?: number | undefined
  /** The request timed out (a smaller eth_getLogs range may answer in time). */
  readonly timeout?: boolean | undefined
}> {}

type Kind = RpcError["kind"]

/**
 * What providers answer, most specific first; the first rule that matches decides. `getLogsOnly` rules only apply to
 * eth_getLogs (elsewhere "limit exceeded" is a rate limit, not a size). The provider texts are the test vectors in
 * test/indexer/rpc-error-vectors.ts, each with where it was seen.
 */
interface Rule {
  readonly kind: Kind
  readonly text?: RegExp
  readonly code?: number
  readonly getLogsOnly?: boolean
}
const rules: ReadonlyArray<Rule> = [
  // dRPC's free tier answers a rate limit with "Request timeout on the free tier" (code 30): not a slow range.
  { kind: "retryable", text: /timeout on the free tier/i },
  { kind: "retryable", text: /rate ?limit|too many requests|exceeded .*(capacity|quota|compute units)/i },
  // A node behind the others (a load balancer): geth refuses a range past its head. Another node may have it.
  { kind: "retryable", text: /beyond current head|after last accepted block|block range extends beyond/i },
  // Size and range refusals.
  { kind: "range", code: -32614, getLogsOnly: true }, // QuickNode
  { kind: "range", code: 35, getLogsOnly: true }, // dRPC
  {
    kind: "range",
    getLogsOnly: true,
    text: new RegExp(
      [
        "block range", // Alchemy, Chainstack, geth-likes, BlastAPI ("up to a 10 block range")
        "range (is )?too (large|wide|big)",
        "limited to an? [\\d,.]+", // QuickNode, Blast
        "range \\d+ exceeds limit", // Infura
        "ranges over [\\d,.]+ blocks", // dRPC
        "blocks distance", // Ankr
        "max(imum)? results|more than \\d+ (results|logs)|query returned more than", // Infura, Ankr, LlamaRPC
        "response (size|is too large)|log response size exceeded|response body exceeded", // Alchemy, viem's 10 MB cap
        "exceed(s|ed)? (the )?(max|maximum)|too many (results|logs|blocks)|limit exceeded|payload too large"
      ].join("|"),
      "i"
    )
  },
  { kind: "range", code: -32005, getLogsOnly: true }, // EIP-1474 "limit exceeded" (Infura's result cap)
  // Timeouts: a smaller eth_getLogs range may answer in time; elsewhere the same request later.
  { kind: "range", getLogsOnly: true, text: /timeout|timed out|took too long/i },
  { kind: "retryable", text: /timeout|timed out|took too long/i },
  { kind: "retryable", text: /ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|network|socket|closed/i },
  { kind: "retryable", text: /header not found|unknown block|internal error/i },
  { kind: "retryable", code: -32603 },
  { kind: "retryable", code: 429 }
]

/** Hints in a refusal's text for the range to ask instead, in blocks. */
const hints: ReadonlyArray<readonly [RegExp, (m: RegExpMatchArray) => number]> = [
  // Alchemy: "this block range should work: [0x0, 0x87fe9]"; LlamaRPC: "retry with the range 1-2".
  [/range should work: \[(0x[0-9a-f]+),\s*(0x[0-9a-f]+)\]/i, (m) => Number(BigInt(m[2]!) - BigInt(m[1]!)) + 1],
  [/retry with the range (\d+)-(\d+)/i, (m) => Number(m[2]) - Number(m[1]) + 1],
  [/up to an? ([\d,.]+) block range/i, (m) => number(m[1]!)], // Alchemy, BlastAPI
  [/limited to an? ([\d,.]+) range/i, (m) => number(m[1]!)], // QuickNode, Blast
  [/exceeds limit of ([\d,.]+)/i, (m) => number(m[1]!)], // Infura
  [/ranges over ([\d,.]+) blocks/i, (m) => number(m[1]!)], // dRPC
  [/blocks distance: (\d+)/i, (m) => number(m[1]!)], // Ankr
  [/maximum block range:? ([\d,.]+)|block range is too wide \(maximum (\d+)\)/i, (m) => number(m[1] ?? m[2]!)]
]
const number = (digits: string) => Number(digits.replace(/[,.]/g, ""))

export const rangeHintOf = (text: string): number | undefined => {
  for (const [pattern, size] of hints) {
    const m = text.match(pattern)
    if (m !== null) {
      const n = size(m)
      if (Number.isFinite(n) && n >= 1) return n
    }
  }
  return undefined
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds. */
export const parseRetryAfter = (value: string | null | undefined, now = Date.now()): number | undefined => {
  if (value === null || value === undefined || value.trim() === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

interface Described {
  readonly text: string
  readonly status?: number
  readonly code?: number
  readonly retryAfter?: string | null
}

/** The texts, HTTP status, JSON-RPC code and Retry-After of an error and its causes (viem nests them). */
const describe = (cause: unknown): Described => {
  const texts: Array<string> = []
  let status: number | undefined
  let code: number | undefined
  let retryAfter: string | null | undefined
  let e = cause as any
  for (let depth = 0; depth < 5 && e !== null && e !== undefined; depth++) {
    for (const t of [e.name, e.shortMessage, e.details, e.message])
      if (typeof t === "string" && !texts.includes(t)) texts.push(t)
    if (status === undefined && typeof e.status === "number") status = e.status
    if (code === undefined && typeof e.code === "number") code = e.code
    if (retryAfter === undefined && typeof e.headers?.get === "function") retryAfter = e.headers.get("retry-after")
    e = e.cause
  }
  const text = texts.join(" | ") || String(cause)
  // An error inside an HTTP body ("details": {"code":-32614,...}) carries the JSON-RPC code in its text only.
  const bodyCode =
    code ??
    (text.match(/"code":\s*(-?\d+)/)?.[1] === undefined ? undefined : Number(text.match(/"code":\s*(-?\d+)/)![1]))
  return {
    text,
    ...(status === undefined ? {} : { status }),
    ...(bodyCode === undefined ? {} : { code: bodyCode }),
    ...(retryAfter === undefined ? {} : { retryAfter })
  }
}

const kindOf = (method: string, d: Described): Kind => {
  for (const rule of rules) {
    if (rule.getLogsOnly === true && method !== "eth_getLogs") continue
    if (rule.code !== undefined && rule.code !== d.code) continue
    if (rule.text !== undefined && !rule.text.test(d.text)) continue
    return rule.kind
  }
  if (d.status === 429 || d.status === 408 || (d.status !== undefined && d.status >= 500)) return "retryable"
  return "fatal"
}

export const classifyRpcError = (method: string, cause: unknown): RpcError => {
  const d = describe(cause)
  const kind = d.status === 429 ? "retryable" : kindOf(method, d)
  const timeout = /timeout|timed out|took too long/i.test(d.text) && !/timeout on the free tier/i.test(d.text)
  return new RpcError({
    kind,
    method,
    // viem names the request URL (with the provider key) in its texts: redacted before the message is logged or shown.
    message: redactUrlsIn(d.text).slice(0, 500),
    cause,
    rangeHint: kind === "range" ? rangeHintOf(d.text) : undefined,
    retryAfterMs: parseRetryAfter(d.retryAfter),
    timeout
  })
}

/** Backoff before retry `attempt` (0-based): 100 ms doubling up to 10 s, with jitter; a Retry-After (≤ 60 s) wins. */
export const backoffMs = (attempt: number, retryAfterMs: number | undefined, random: number): number => {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, 60_000)
  const ceiling = Math.min(10_000, 100 * 2 ** attempt)
  // "Equal jitter": half the ceiling plus a random half, so many clients refused together do not retry together.
  return Math.round(ceiling / 2 + (random * ceiling) / 2)
}

/** Retries retryable failures (about 2 minutes in all without Retry-After), waiting `backoffMs` between attempts. */
export const rpcRetry = <A, R>(effect: Effect.Effect<A, RpcError, R>, attempts = 20): Effect.Effect<A, RpcError, R> => {
  const attempt = (n: number): Effect.Effect<A, RpcError, R> =>
    effect.pipe(
      Effect.catchIf(
        (e) => e.kind === "retryable" && n < attempts,
        (e) => {
          const wait = backoffMs(n, e.retryAfterMs, Math.random())
          return Effect.logWarning(`RPC ${e.method} failed, retrying in ${wait} ms: ${e.message}`).pipe(
            Effect.andThen(Effect.sleep(Duration.millis(wait))),
            Effect.andThen(attempt(n + 1))
          )
        }
      )
    )
  return attempt(0)
}

/** One RPC call as an Effect, failures classified. */
export const rpcCall = <A>(method: string, f: () => Promise<A>): Effect.Effect<A, RpcError> =>
  Effect.tryPromise({ try: f, catch: (cause) => classifyRpcError(method, cause) })
