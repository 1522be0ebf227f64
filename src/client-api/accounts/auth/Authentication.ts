import { Context, type Option } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { Forbidden, Unauthorized } from "../../../platform/ApiError.ts"
import type { AuthenticatedSession } from "../sessions/Session.ts"
import { SESSION_COOKIE, SESSION_COOKIE_INSECURE } from "../sessions/SessionConfig.ts"
import type { User } from "../users/User.ts"

/**
 * The auth middlewares of the API contract. Endpoints declare which one they need; handlers then read the current
 * session or user from the context and never look at headers. Implementations: AuthenticationLive.ts.
 */

export class CurrentSession extends Context.Service<CurrentSession, AuthenticatedSession>()(
  "app/auth/CurrentSession"
) {}
export class CurrentUser extends Context.Service<CurrentUser, User>()("app/auth/CurrentUser") {}
/** The session when the request carried a valid one (optional-JWT routes). */
export class OptionalSession extends Context.Service<OptionalSession, Option.Option<AuthenticatedSession>>()(
  "app/auth/OptionalSession"
) {}

/** The session JWT travels as `Authorization: Bearer <JWT>` or in the httpOnly cookie; the header wins when both are sent. */
export const sessionSecurity = {
  bearer: HttpApiSecurity.bearer.pipe(
    HttpApiSecurity.annotate(OpenApi.Description, "Session JWT from sign-in (`Authorization: Bearer <JWT>`)")
  ),
  cookie: HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" }).pipe(
    HttpApiSecurity.annotate(
      OpenApi.Description,
      `The same JWT in the httpOnly cookie \`${SESSION_COOKIE}\` (SameSite=Lax, Secure, Path=/; \`${SESSION_COOKIE_INSECURE}\` ` +
        "without Secure when COOKIE_SECURE=false). A state-changing request authenticated by the cookie is refused " +
        "(403 CROSS_SITE_REQUEST) when its Origin is neither in CORS_ORIGINS nor the API's own host, or the browser marks it cross-site"
    )
  )
}

/** JWT required: 401 UNAUTHORIZED when missing, invalid, expired or revoked; 403 USER_BANNED for a banned user. */
export class Authentication extends HttpApiMiddleware.Service<
  Authentication,
  {
    provides: CurrentSession | CurrentUser
  }
>()("app/auth/Authentication", { security: sessionSecurity, error: [Unauthorized, Forbidden] }) {}

/** JWT of an admin (`isAdmin: true`) required: as `Authentication`, plus 403 FORBIDDEN for everyone else. */
export class AdminAuthentication extends HttpApiMiddleware.Service<
  AdminAuthentication,
  {
    provides: CurrentSession | CurrentUser
  }
>()("app/auth/AdminAuthentication", { security: sessionSecurity, error: [Unauthorized, Forbidden] }) {}

/**
 * JWT optional: a valid session personalises the answer; no token, or one that does not authenticate (invalid,
 * expired, revoked, or a banned user's), is served anonymously: a stale cookie must not break public pages, and the
 * spec's "works without" means no credential can make these routes fail. Never fails.
 */
export class OptionalAuthentication extends HttpApiMiddleware.Service<
  OptionalAuthentication,
  {
    provides: OptionalSession
  }
>()("app/auth/OptionalAuthentication") {}
