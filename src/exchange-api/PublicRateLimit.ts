import { HttpApiMiddleware } from "effect/http-api"
import { ExchangeTooManyRequests } from "./ExchangeError.ts"

/**
 * Per-client-IP limit of the exchange API's public routes (spec: "rate-limited per IP"): RATE_LIMIT_EXCHANGE_PUBLIC_LIMIT
 * requests per RATE_LIMIT_EXCHANGE_PUBLIC_WINDOW_SECONDS (default 600 per 60 s) across all public routes and all
 * processes sharing the store. The IP is the socket peer, or the right-most untrusted X-Forwarded-For hop behind TRUST_PROXY (IPv6 counted by /64).
 * Over the limit: 429 `RATE_LIMITED` with `Retry-After`; every answer carries `RateLimit-*` headers.
 */
/** The limiter bucket of the public routes (also counted by the fast lane, ExchangeFastLane.ts). */
export const PUBLIC_BUCKET = "exchange-public"

export class PublicRateLimit extends HttpApiMiddleware.Service<PublicRateLimit>()("app/exchange/PublicRateLimit", {
  error: ExchangeTooManyRequests
}) {}
