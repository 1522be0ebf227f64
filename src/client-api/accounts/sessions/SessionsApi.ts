import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authentication, OptionalAuthentication } from "../auth/Authentication.ts"
import { BadRequest, Forbidden, ServiceUnavailable, TooManyRequests, Unauthorized } from "../../../platform/ApiError.ts"
import { SignInIpLimit } from "./SignInIpLimit.ts"
import { McpSessionEffect } from "../../../platform/McpAnnotations.ts"
import {
  CurrentSessionView,
  IdpLoginPayload,
  SessionToken,
  WalletNonce,
  WalletNonceQuery,
  WalletStatePayload,
  WalletStateRecorded,
  WalletVerifyPayload
} from "./Session.ts"
import { SESSION_COOKIE, SESSION_COOKIE_INSECURE } from "./SessionConfig.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const issues =
  `Answers \`{token, expiresAt, user}\` and sets the httpOnly cookie \`${SESSION_COOKIE}\` ` +
  `(SameSite=Lax, Path=/, Max-Age = JWT_TTL, Secure; \`${SESSION_COOKIE_INSECURE}\` without Secure when COOKIE_SECURE=false). ` +
  "The JWT lives JWT_TTL (7 days by default)."

/** Sign-in (wallet and identity provider), the current session, rotation, logout and wallet-state reports. */
export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("getWalletNonce", "/v1/session/wallet/nonce", {
      query: WalletNonceQuery,
      success: WalletNonce,
      error: BadRequest
    })
      .middleware(SignInIpLimit)
      .annotateMerge(
        doc(
          "Nonce for wallet sign-in",
          "A random nonce bound to `address`, single use, valid 5 minutes, stored in the database (any API process " +
            "accepts it). Invalid address → 400 INVALID_QUERY."
        )
      ),
    HttpApiEndpoint.post("verifyWalletSignature", "/v1/session/wallet/verify", {
      payload: WalletVerifyPayload,
      success: SessionToken,
      error: [BadRequest, Unauthorized, Forbidden, ServiceUnavailable, TooManyRequests]
    })
      .middleware(SignInIpLimit)
      .annotate(McpSessionEffect, "issues")
      .annotateMerge(
        doc(
          "Sign in with Ethereum (EIP-4361)",
          "Verifies a personal_sign signature of an EIP-4361 message: EOA, ERC-1271 (deployed smart wallet) and " +
            "ERC-6492 (undeployed) signatures. The message needs only the address line (EIP-55 checksummed) and a line " +
            "`Nonce: <nonce>` (from GET /v1/session/wallet/nonce): `<address>\\nNonce: <nonce>` is enough, as is the " +
            "standard layout with a blank line after the address. The other standard lines (the `<domain> wants you to " +
            "sign in…` line, statement, URI, Version, Chain ID, Issued At, Expiration Time, Not Before, Request ID, " +
            "Resources) are optional, but when present they keep the EIP-4361 order and grammar, each at most once. " +
            "LF or CRLF line endings and one trailing line break are accepted; the signature is checked over the exact " +
            "`message` string sent. The nonce is consumed atomically; an unknown wallet becomes a new user " +
            `(idpDid \`wallet:<address>\`). ${issues} Errors: 400 INVALID_SIWE_MESSAGE, INVALID_BODY; 401 INVALID_NONCE, ` +
            "NONCE_EXPIRED, INVALID_SIGNATURE, SIWE_DOMAIN_MISMATCH (SIWE_DOMAINS), SIWE_URI_NOT_ALLOWED (https, or http " +
            "on localhost), SIWE_CHAIN_NOT_SUPPORTED (SIWE_CHAIN_IDS), SIWE_MESSAGE_EXPIRED, SIWE_NOT_YET_VALID; " +
            "403 USER_BANNED; 429 RATE_LIMITED (per client IP and per address); 503 CHAIN_UNAVAILABLE. A nonce dies after " +
            "SIWE_NONCE_MAX_FAILURES (3) failed signatures (401 INVALID_NONCE, reason exhausted)."
        )
      ),
    HttpApiEndpoint.post("createSession", "/v1/session/create", {
      payload: IdpLoginPayload,
      success: SessionToken,
      error: [BadRequest, Unauthorized, Forbidden, ServiceUnavailable]
    })
      .middleware(SignInIpLimit)
      .annotate(McpSessionEffect, "issues")
      .annotateMerge(
        doc(
          "Sign in with an identity-provider ID token",
          "Verifies the ID token against the JWKS of IDP_ISSUER (IDP_JWKS_URL; audience IDP_AUDIENCE) and finds or " +
            `creates the user by its \`sub\` (DID). ${issues} Errors: 401 INVALID_ID_TOKEN, ID_TOKEN_EXPIRED; 403 ` +
            "USER_BANNED; 503 IDP_NOT_CONFIGURED, IDP_UNAVAILABLE."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("getCurrentSession", "/v1/session/current", {
      success: CurrentSessionView
    })
      .middleware(Authentication)
      .annotateMerge(doc("The current session", "The session of the JWT and its user.")),
    HttpApiEndpoint.post("refreshSession", "/v1/session/refresh", {
      success: SessionToken
    })
      .middleware(Authentication)
      .annotate(McpSessionEffect, "issues")
      .annotateMerge(
        doc(
          "Rotate the session JWT",
          `Issues a new JWT (new jti, full JWT_TTL) and revokes the old one at once. ${issues}`
        )
      ),
    HttpApiEndpoint.post("logout", "/v1/session/logout", {
      success: HttpApiSchema.NoContent
    })
      .middleware(Authentication)
      .annotate(McpSessionEffect, "ends")
      .annotateMerge(
        doc(
          "Log out",
          `Revokes the session (every API process refuses it within SESSION_CACHE_MS, at most 1 s) and expires the cookie.`
        )
      ),
    HttpApiEndpoint.post("reportWalletState", "/v1/session/wallet-state", {
      payload: WalletStatePayload,
      success: WalletStateRecorded,
      error: BadRequest
    })
      .middleware(OptionalAuthentication)
      .middleware(SignInIpLimit)
      .annotateMerge(
        doc(
          "Report wallet connection state",
          "Records what the client's wallet did (connected, disconnected, changed account or chain), linked to the " +
            "session when a JWT is sent. Works without a JWT."
        )
      )
  )
  .annotateMerge(OpenApi.annotations({ title: "Sessions", description: "Sign-in, sessions and wallet state" })) {}
