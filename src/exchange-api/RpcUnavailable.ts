import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { ExchangeUnavailable } from "./ExchangeError.ts"

/**
 * An RPC that is rate-limited (429), down (5xx, refused connection) or slow answers nothing: 503 RPC_UNAVAILABLE
 * with `details.retryAfterSeconds` (the provider's Retry-After, else 1 s; the route sends it as `Retry-After`)
 * rather than a 500. Anything else (a revert, a malformed answer) is not unavailability: `undefined`.
 */
export const rpcUnavailable = (error: unknown): ExchangeUnavailable | undefined => {
  let status: number | undefined
  let retryAfter: string | null | undefined
  const texts: Array<string> = []
  let e = error as any
  for (let depth = 0; depth < 5 && e !== null && e !== undefined; depth++) {
    if (status === undefined && typeof e.status === "number") status = e.status
    if (retryAfter === undefined && typeof e.headers?.get === "function") retryAfter = e.headers.get("retry-after")
    for (const t of [e.name, e.details, e.message]) if (typeof t === "string") texts.push(t)
    e = e.cause
  }
  const text = texts.join(" | ")
  const limited = status === 429 || /rate ?limit|too many requests/i.test(text)
  const down =
    (status !== undefined && status >= 500) ||
    /timeout|timed out|took too long|fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(text)
  if (!limited && !down) return undefined
  const seconds = Number(retryAfter)
  const retryAfterSeconds =
    retryAfter !== null && retryAfter !== undefined && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : 1
  return new ExchangeUnavailable({
    error: limited
      ? "The chain's RPC is rate-limiting this service; retry later"
      : "The chain's RPC does not answer; retry later",
    code: "RPC_UNAVAILABLE",
    details: { retryAfterSeconds, ...(status === undefined ? {} : { rpcStatus: status }) }
  })
}

/** On a 503 carrying `details.retryAfterSeconds`, the response gets that `Retry-After` header (any other error: nothing). */
export const sendRetryAfter = (e: unknown) => {
  const seconds = e instanceof ExchangeUnavailable ? e.details?.["retryAfterSeconds"] : undefined
  return seconds === undefined
    ? Effect.void
    : HttpEffect.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(seconds)))
      )
}
