import { HttpApiMiddleware } from "effect/http-api"
import { TooManyRequests } from "../platform/ApiError.ts"

/**
 * Per-client-IP limit of the client API: every route of its feature groups (ClientApi.ts adds the probes, health and
 * `/v1/ip` after it, so load balancers and monitors are not counted), RATE_LIMIT_CLIENT_IP_LIMIT requests per
 * RATE_LIMIT_CLIENT_IP_WINDOW_SECONDS (1,200 per 60 s) across all processes sharing the store. The sign-in routes also
 * have their own, smaller window (accounts/sessions/SignInIpLimit.ts). The key is the caller's IP as
 * src/platform/system/CallerIp.ts finds it (IPv6 by /64). Over the limit: 429 `RATE_LIMITED` with `Retry-After`;
 * every answer carries `RateLimit-*` headers. Implementation: ClientIpLimitLive.ts.
 */
export class ClientIpLimit extends HttpApiMiddleware.Service<ClientIpLimit>()("app/client/ClientIpLimit", {
  error: TooManyRequests
}) {}
