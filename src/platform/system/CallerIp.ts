import { Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import * as Net from "node:net"
import { AppConfig, type AppSettings } from "../AppConfig.ts"

/**
 * Which forwarding hops are believed. Behind proxies that append to `X-Forwarded-For` (nginx, ALB, Cloudflare)
 * only the entries they wrote can be trusted: the client writes whatever it likes to the left of them. So the
 * caller is found from the right: the socket peer, then the header's entries right to left, skipping hops we trust.
 */
export interface ProxyTrust {
  /** TRUST_PROXY: forwarded headers are read at all. */
  readonly enabled: boolean
  /** TRUSTED_PROXY_HOPS: how many proxies stand in front of the app (used when no CIDRs are set). */
  readonly hops: number
  /** TRUSTED_PROXIES: when set, every hop inside these ranges is skipped, whatever their number. */
  readonly cidrs: Net.BlockList | undefined
}

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is reported as `127.0.0.1`. */
const normalize = (ip: string) => ip.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1")

/** A BlockList from `10.0.0.0/8, 2001:db8::/32, 192.0.2.7` (a bare address is a /32 or /128). */
export const blockListOf = (cidrs: ReadonlyArray<string>): Net.BlockList | undefined => {
  if (cidrs.length === 0) return undefined
  const list = new Net.BlockList()
  for (const cidr of cidrs) {
    const [address = "", prefix] = cidr.trim().split("/")
    const family = Net.isIP(address)
    if (family === 0) throw new Error(`TRUSTED_PROXIES: "${cidr}" is not an IP address or CIDR range`)
    const type = family === 4 ? "ipv4" : "ipv6"
    if (prefix === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(prefix), type)
  }
  return list
}

const trustOfSettings = new WeakMap<AppSettings, ProxyTrust>()

/** The settings' ProxyTrust, built once per settings object (a BlockList is not rebuilt per request). */
export const proxyTrustOf = (settings: AppSettings): ProxyTrust => {
  let trust = trustOfSettings.get(settings)
  if (trust === undefined) {
    trust = {
      enabled: settings.trustProxy,
      hops: Math.max(0, settings.trustedProxyHops),
      cidrs: blockListOf(settings.trustedProxies)
    }
    trustOfSettings.set(settings, trust)
  }
  return trust
}

const inRanges = (list: Net.BlockList, ip: string) => {
  const family = Net.isIP(ip)
  return family !== 0 && list.check(ip, family === 4 ? "ipv4" : "ipv6")
}

/**
 * The caller's IP: the socket peer, or, behind trusted proxies, the right-most `X-Forwarded-For` entry that no
 * trusted proxy wrote. An entry that is not an IP address (`net.isIP`) stops the walk: the last trusted hop
 * (the proxy that passed it on) stands for the caller, so garbage cannot mint fresh rate-limit buckets.
 */
export const callerIpOf = (trust: ProxyTrust, forwardedFor: string | undefined, remoteAddress: string | undefined) => {
  const peer = remoteAddress === undefined ? "unknown" : normalize(remoteAddress)
  if (!trust.enabled || forwardedFor === undefined) return peer
  // Right to left: the socket peer, then the entries the proxies appended, nearest first.
  const chain = [
    peer,
    ...forwardedFor
      .split(",")
      .map(normalize)
      .filter((e) => e !== "")
      .reverse()
  ]
  let index = 0
  if (trust.cidrs !== undefined) {
    while (index < chain.length - 1 && inRanges(trust.cidrs, chain[index]!)) index++
  } else {
    index = Math.min(trust.hops, chain.length - 1)
  }
  for (let i = index; i > 0; i--) {
    // Fall back towards the socket until an entry is an address (the peer always is, or is "unknown").
    if (Net.isIP(chain[i]!) !== 0) return chain[i]!
  }
  return peer
}

/**
 * The key per-IP limits count under: an IPv4 address as is, an IPv6 address by its /64 (one subscriber's
 * allocation: a host can rotate through 2^64 addresses of its own prefix, so counting per /128 limits nothing).
 */
export const ipLimitKey = (ip: string) => {
  if (Net.isIPv6(ip)) {
    const expanded = expandIpv6(ip)
    return `${expanded.slice(0, 4).join(":")}::/64`
  }
  return ip
}

/** The eight hextets of an IPv6 address, without zone, as lowercase numbers without leading zeros. */
const expandIpv6 = (ip: string): Array<string> => {
  const bare = ip.split("%")[0]!.toLowerCase()
  const [head = "", tail] = bare.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) takes two hextets; it sits past the /64, so its value does not matter.
  const width = (parts: Array<string>) => parts.reduce((n, p) => n + (p.includes(".") ? 2 : 1), 0)
  const zeros = tail === undefined ? [] : Array(8 - width(left) - width(right)).fill("0")
  return [...left, ...zeros, ...right].map((h) => (h.includes(".") ? h : Number.parseInt(h, 16).toString(16)))
}

export const callerIp = Effect.gen(function* () {
  const settings = yield* AppConfig
  const request = yield* HttpServerRequest.HttpServerRequest
  return callerIpOf(
    proxyTrustOf(settings),
    request.headers["x-forwarded-for"],
    Option.getOrUndefined(request.remoteAddress)
  )
})

/** The per-IP limit key of the current request (see `ipLimitKey`). */
export const callerLimitKey = Effect.map(callerIp, ipLimitKey)
