import * as NodeDns from "node:dns"
import { Agent, type RequestOptions } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import type { Duplex } from "node:stream"
import { rootCertificates } from "node:tls"
import { blockedRangeOf, describeRange } from "./BlockedAddresses.ts"

/**
 * The https Agent of web-push deliveries, and where the delivery-time SSRF check lives (docs/SECURITY.md threat 6).
 *
 * The check has to sit at connection time, on the addresses the socket is about to use: a host name checked when
 * the user subscribed (or a moment before sending) can resolve elsewhere by the time of the connection (DNS
 * rebinding). So the Agent carries a `lookup` that resolves with the system resolver (`dns.lookup`, as Node does)
 * and refuses the connection when any address is in a blocked range (src/client-api/notifications/push/BlockedAddresses.ts); the socket then
 * connects to exactly the addresses that were checked. Node does not call `lookup` for an IP-literal host
 * (test/push/PushAgent.test.ts shows it), so `createConnection` checks those itself, on the host string Node is
 * about to connect to: no second URL parser whose reading could differ from web-push's.
 */

/** A delivery refused before any connection: the endpoint's host is, or resolves to, a blocked address. */
export class RefusedAddress extends Error {
  readonly code = "EPUSH_ADDRESS_REFUSED"
  readonly host: string
  readonly address: string
  readonly range: string
  constructor(host: string, address: string, range: string) {
    super(`push endpoint host ${host} ${address === host ? "is" : `resolved to ${address},`} ${describeRange(range)}`)
    this.name = "RefusedAddress"
    this.host = host
    this.address = address
    this.range = range
  }
}

const refusal = (host: string, addresses: ReadonlyArray<string>): RefusedAddress | undefined => {
  for (const address of addresses) {
    const range = blockedRangeOf(address)
    if (range !== undefined) return new RefusedAddress(host, address, range)
  }
  return undefined
}

/** `dns.lookup`, refusing when any of the host's addresses is blocked (not only the one Node would try first). */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  NodeDns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, [])
    if (addresses.length === 0)
      return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), [])
    const refused = refusal(
      hostname,
      addresses.map((a) => a.address)
    )
    if (refused !== undefined) return callback(refused, [])
    if (options.all === true) return callback(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

class GuardedAgent extends Agent {
  override createConnection(options: RequestOptions, callback?: (err: Error | null, stream: Duplex) => void) {
    const host = options.host ?? ""
    const refused = isIP(host) === 0 ? undefined : refusal(host, [host])
    if (refused === undefined) return super.createConnection(options, callback)
    if (callback === undefined)
      throw refused
      // How Node's docs (agent.createConnection) say to fail a socket's creation: the request emits the error and
      // nothing connects. The typings ask for a stream even with an error, hence the cast.
    ;(callback as (err: Error) => void)(refused)
    return undefined
  }
}

export interface PushAgentOptions {
  /** PEM of extra CAs (PUSH_CA_FILE): added to Node's roots, certificates stay verified. */
  readonly ca?: string | undefined
  /** PUSH_ALLOW_PRIVATE_HOSTS: no address check (development, tests against a local push service). */
  readonly allowPrivateHosts: boolean
}

export const pushAgent = (options: PushAgentOptions): Agent => {
  const tls = { keepAlive: true, ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }) }
  return options.allowPrivateHosts ? new Agent(tls) : new GuardedAgent({ ...tls, lookup: guardedLookup })
}
