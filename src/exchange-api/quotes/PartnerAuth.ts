import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { ExchangeUnauthorized } from "../ExchangeError.ts"

/**
 * The partner key of the quote routes (spec "Authentication"). Declared as an `x-api-key` header scheme so OpenAPI
 * and the MCP tools know where the key goes; the implementation reads the header named by QUOTE_API_KEY_HEADER
 * (default `x-api-key`), never `Authorization`. With no active key at all every request is refused, unless QUOTE_OPEN
 * (default only with the embedded devnet) opens them, limited per client IP (QUOTE_OPEN_RATE_LIMIT).
 * A missing, unknown or revoked key → 401 `{ error: "Invalid API key", code: "INVALID_API_KEY" }`. Each key has
 * its own window (QUOTE_RATE_LIMIT per QUOTE_RATE_LIMIT_WINDOW_SECONDS unless the key row says otherwise): over it → 429.
 */
export class PartnerAuth extends HttpApiMiddleware.Service<PartnerAuth>()("app/quotes/PartnerAuth", {
  security: { partnerKey: HttpApiSecurity.apiKey({ key: "x-api-key", in: "header" }) },
  error: ExchangeUnauthorized
}) {}
