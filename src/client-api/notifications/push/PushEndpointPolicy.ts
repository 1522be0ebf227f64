import { isIP } from "node:net"
import { BadRequest } from "../../../platform/ApiError.ts"
import { blockedRangeOf, describeRange } from "./BlockedAddresses.ts"

/**
 * The subscribe-time check of a push endpoint's host (docs/SECURITY.md threat 6): refuse at once what can only be
 * an internal destination, so the caller learns it with a 400 instead of a subscription that silently disappears.
 *
 * It looks at the host as written and never resolves DNS: resolving in the request path would be slow, would let a
 * caller probe the internal resolver, and would prove nothing, since a name can resolve elsewhere later (DNS
 * rebinding). The check that counts is at delivery time, on the resolved addresses (src/client-api/notifications/push/PushAgent.ts); this
 * one only catches the obvious: IP literals in a blocked range and the `localhost` names (RFC 6761 §6.3).
 */

export const PUSH_ENDPOINT_NOT_ALLOWED = "PUSH_ENDPOINT_NOT_ALLOWED"

/** Why `endpoint` may not be subscribed, or undefined when its host is acceptable (or it is not a URL at all). */
export const endpointHostProblem = (endpoint: string): { host: string; reason: string } | undefined => {
  const url = URL.parse(endpoint)
  if (url === null) return undefined // the payload schema has already refused it
  // WHATWG parsing has normalised the host: lower case, IPv4 in dotted decimal (0x7f.1 → 127.0.0.1), IPv6 bracketed.
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
  if (isIP(host) !== 0) {
    const range = blockedRangeOf(host)
    return range === undefined ? undefined : { host, reason: describeRange(range) }
  }
  const name = host.endsWith(".") ? host.slice(0, -1) : host
  if (name === "localhost" || name.endsWith(".localhost")) return { host, reason: "a name of this machine (localhost)" }
  return undefined
}

/** The 400 for an endpoint `endpointHostProblem` refused: the client API's usual `{ code, message, details }`. */
export const endpointNotAllowed = (problem: { host: string; reason: string }) =>
  new BadRequest({
    code: PUSH_ENDPOINT_NOT_ALLOWED,
    message: `The push endpoint's host ${problem.host} is ${problem.reason}: endpoints must be public push services`,
    details: { host: problem.host, reason: problem.reason }
  })
