/**
 * The routes the product specification's endpoint tables name, as `METHOD /path` (path parameters as `:name`, query
 * strings dropped; a table cell without a method is a GET). Written out once, on 2026-11-27, from the endpoint tables
 * of the specification's client API and exchange API documents (the specification the project was built to; it is not
 * part of this repository, and the tests read nothing outside it). The client tables name 63 routes (engagement,
 * notifications and push are described in prose, not in tables); the exchange and search tables name 29. When the
 * specification changes, change these lists with it.
 */

/** The client API document's tables (`app_` tools). */
export const clientSpecRoutes: ReadonlyArray<string> = [
  "POST /v1/session/create",
  "GET /v1/session/current",
  "POST /v1/session/refresh",
  "POST /v1/session/logout",
  "POST /v1/session/wallet-state",
  "GET /v1/session/wallet/nonce",
  "POST /v1/session/wallet/verify",
  "GET /v1/users/me",
  "GET /v1/users/profile/address/:wallet",
  "GET /v1/users/username/check",
  "PATCH /v1/users/profile",
  "POST /v1/users/profile/image",
  "GET /v1/users/stats",
  "GET /v1/users/activity",
  "GET /v1/users/yaps",
  "GET /v1/users/fuels",
  "GET /v1/users/trades",
  "PATCH /v1/users/admin/:userId",
  "GET /v1/tokens/:mintAddress",
  "GET /v1/tokens/:mintAddress/buyers",
  "GET /v1/tokens/:mintAddress/buyers/chart",
  "GET /v1/tokens/:mintAddress/fuels",
  "GET /v1/tokens/:mintAddress/position",
  "POST /v1/tokens/batch/images",
  "POST /v1/tokens/:mintAddress/report",
  "POST /v1/tokens/:mintAddress/claim",
  "POST /v1/tokens/:mintAddress/claim/image",
  "POST /v1/launch",
  "GET /v1/launch/pending",
  "GET /v1/launch/:id",
  "POST /v1/launch/:id/image",
  "POST /v1/launch/:id/submit",
  "POST /v1/launch/:id/fail",
  "DELETE /v1/launch/:id",
  "GET /v1/comments/tokens/:mintAddress",
  "GET /v1/comments/:id",
  "GET /v1/comments/tokens/:mintAddress/post/:postNumber",
  "POST /v1/comments",
  "PUT /v1/comments/:id",
  "DELETE /v1/comments/:id",
  "POST /v1/comments/:id/report",
  "GET /v1/fuel/credits",
  "GET /v1/fuel/received",
  "GET /v1/fuel/given",
  "GET /v1/gifts/status",
  "GET /v1/gifts/prepare",
  "POST /v1/gifts",
  "POST /v1/gifts/reset-cycle",
  "GET /v1/feed",
  "GET /v1/feed/content",
  "GET /v1/feed/dares/viral",
  "GET /v1/feed/sidebar",
  "GET /v1/content/yaps",
  "GET /v1/content/shills",
  "GET /v1/content/tips",
  "GET /v1/content/landing-ticker",
  "GET /v1/competition/stats",
  "GET /v1/badges",
  "GET /v1/badges/:badgeId",
  "POST /v1/shares",
  "GET /healthz",
  "GET /v1/ip",
  "POST /v1/x-auth/store-tokens"
]

/** The exchange API document's tables, including the search service's routes (`dex_` tools). */
export const exchangeSpecRoutes: ReadonlyArray<string> = [
  "GET /api/v1/quote",
  "POST /api/v1/quote",
  "POST /api/v1/quote/open",
  "GET /api/v1/quote/tokens",
  "GET /api/v1/pools/list",
  "GET /api/v1/pools/admitted",
  "GET /api/v1/pools",
  "GET /api/v1/pools/metrics",
  "GET /api/v1/pools/:poolId",
  "GET /api/v1/pools/:poolId/timeseries",
  "GET /api/v1/pools/:poolId/activity",
  "GET /api/v1/pools/:poolId/ticks",
  "GET /api/v1/pools/:poolId/positions",
  "GET /api/v1/pools/:poolId/swaps",
  "GET /api/v1/stats/global",
  "GET /api/v1/indexer/status",
  "GET /api/v1/tokens/trending",
  "GET /api/v1/tokens/:tokenId",
  "GET /api/v1/tokens/:tokenId/history",
  "GET /api/v1/tokens/bluechip",
  "GET /api/v1/tokens/prices",
  "GET /api/v1/tokens/fire-meta",
  "GET /api/v1/users/:owner/positions/active",
  "GET /api/v1/status",
  "GET /api/health",
  "GET /api/v1/search",
  "GET /api/v1/search/tokens",
  "GET /api/v1/search/pools",
  "GET /api/v1/autocomplete"
]

/** `"GET /v1/a/:b"` as the method and path the tool naming takes. */
export const specEntries = (routes: ReadonlyArray<string>) =>
  routes.map((route) => {
    const [method, path] = route.split(" ") as [string, string]
    return { method, path }
  })
