import type { SiweFields } from "./SiweMessage.ts"

/**
 * The checks a parsed SIWE message must pass besides its signature and nonce. Each standard line is checked only when
 * present (the parser requires just the address and the nonce), except the domain, which is required as soon as
 * `SIWE_DOMAINS` is configured: a message without a domain could otherwise be replayed from a phishing site.
 *
 * `complete` (production, SIWE_REQUIRE_COMPLETE): the `<domain> wants you to sign in` line, a `URI:` whose host is
 * one of the domains and a `Chain ID:` are required. A two-line `<address>\nNonce: <n>` is what a phishing page
 * asks a victim to personal_sign: wallets show their origin warning only for a message that names a domain.
 */
export interface SiwePolicy {
  /** Accepted `host[:port]` values, lower-case; empty = any domain. */
  readonly domains: ReadonlyArray<string>
  /** Accepted `Chain ID` values; empty = any chain. */
  readonly chainIds: ReadonlyArray<number>
  /** Require the domain line, a URI on one of `domains` and a Chain ID. */
  readonly complete?: boolean
}

export type SiweRejection =
  | { readonly code: "SIWE_DOMAIN_MISMATCH"; readonly message: string }
  | { readonly code: "SIWE_URI_NOT_ALLOWED"; readonly message: string }
  | { readonly code: "SIWE_CHAIN_NOT_SUPPORTED"; readonly message: string }
  | { readonly code: "SIWE_MESSAGE_EXPIRED"; readonly message: string }
  | { readonly code: "SIWE_NOT_YET_VALID"; readonly message: string }

const loopback = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?$/i

/** https everywhere; plain http only for a loopback host (local development). Other schemes are refused. */
const allowedScheme = (scheme: string, host: string) =>
  scheme.toLowerCase() === "https" || (scheme.toLowerCase() === "http" && loopback.test(host))

/** `user@host:port` → `host:port`, lower-case. */
const hostOf = (authority: string) => authority.slice(authority.lastIndexOf("@") + 1).toLowerCase()

/** What a complete message must carry (see `SiwePolicy.complete`). */
const checkComplete = (fields: SiweFields, policy: SiwePolicy): SiweRejection | undefined => {
  if (fields.domain === undefined) {
    return {
      code: "SIWE_DOMAIN_MISMATCH",
      message:
        "The message names no domain (`<domain> wants you to sign in…` line); this server requires one of its own"
    }
  }
  if (fields.uri === undefined) {
    return {
      code: "SIWE_URI_NOT_ALLOWED",
      message: "The message has no URI line; this server requires one on its own domain"
    }
  }
  const host = URL.parse(fields.uri)?.host.toLowerCase()
  if (host === undefined || !policy.domains.includes(host)) {
    return { code: "SIWE_URI_NOT_ALLOWED", message: `URI ${fields.uri} is not on a domain of this server` }
  }
  if (fields.chainId === undefined) {
    return { code: "SIWE_CHAIN_NOT_SUPPORTED", message: "The message names no Chain ID; this server requires one" }
  }
  return undefined
}

export const checkSiwePolicy = (fields: SiweFields, policy: SiwePolicy, now: Date): SiweRejection | undefined => {
  if (policy.complete === true) {
    const incomplete = checkComplete(fields, policy)
    if (incomplete !== undefined) return incomplete
  }
  if (policy.domains.length > 0) {
    if (fields.domain === undefined) {
      return {
        code: "SIWE_DOMAIN_MISMATCH",
        message: "The message names no domain; this server requires one of its own"
      }
    }
    if (!policy.domains.includes(hostOf(fields.domain))) {
      return { code: "SIWE_DOMAIN_MISMATCH", message: `The message was made for ${fields.domain}, not for this server` }
    }
  }
  if (
    fields.scheme !== undefined &&
    fields.domain !== undefined &&
    !allowedScheme(fields.scheme, hostOf(fields.domain))
  ) {
    return {
      code: "SIWE_URI_NOT_ALLOWED",
      message: `Scheme ${fields.scheme} is not allowed (https, or http on localhost)`
    }
  }
  if (fields.uri !== undefined) {
    const url = URL.parse(fields.uri)
    const scheme = fields.uri.slice(0, fields.uri.indexOf(":"))
    if (url === null || !allowedScheme(scheme, url.host)) {
      return { code: "SIWE_URI_NOT_ALLOWED", message: `URI ${fields.uri} is not allowed (https, or http on localhost)` }
    }
  }
  if (fields.chainId !== undefined && policy.chainIds.length > 0 && !policy.chainIds.includes(fields.chainId)) {
    return {
      code: "SIWE_CHAIN_NOT_SUPPORTED",
      message: `Chain ID ${fields.chainId} is not supported (supported: ${policy.chainIds.join(", ")})`
    }
  }
  if (fields.expirationTime !== undefined && now.getTime() >= Date.parse(fields.expirationTime)) {
    return { code: "SIWE_MESSAGE_EXPIRED", message: `The message expired at ${fields.expirationTime}` }
  }
  if (fields.notBefore !== undefined && now.getTime() < Date.parse(fields.notBefore)) {
    return { code: "SIWE_NOT_YET_VALID", message: `The message is not valid before ${fields.notBefore}` }
  }
  return undefined
}
