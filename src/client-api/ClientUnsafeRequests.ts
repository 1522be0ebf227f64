import type { UnsafeRequestPolicy } from "../platform/http/UnsafeRequests.ts"
import { SESSION_COOKIE, SESSION_COOKIE_INSECURE } from "./accounts/sessions/SessionConfig.ts"

/**
 * The client API's rules for state-changing requests (src/platform/http/UnsafeRequests.ts): the session cookie, under
 * either name, makes a request cookie-authenticated, so a foreign `Origin` or `Sec-Fetch-Site: cross-site` refuses it.
 */
export const clientUnsafeRequests: UnsafeRequestPolicy = {
  credentialCookies: [SESSION_COOKIE, SESSION_COOKIE_INSECURE]
}
