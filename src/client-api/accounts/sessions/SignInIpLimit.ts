import { HttpApiMiddleware } from "effect/http-api"
import { TooManyRequests } from "../../../platform/ApiError.ts"

/**
 * Per-client-IP limits of the client API, as HttpApi middleware so each endpoint declares its 429:
 * `SignInIpLimit` on the sign-in routes (wallet nonce, wallet verify, ID-token sign-in, and the anonymous
 * wallet-state report: each writes a row or may cost an eth_call), SIGNIN_IP_RATE_LIMIT per SIGNIN_IP_RATE_WINDOW_SECONDS. The key is the caller's IP as
 * src/platform/system/CallerIp.ts finds it (IPv6 by /64). Over the limit: 429 `RATE_LIMITED` in the client error shape.
 */
export class SignInIpLimit extends HttpApiMiddleware.Service<SignInIpLimit>()("app/sessions/SignInIpLimit", {
  error: TooManyRequests
}) {}
