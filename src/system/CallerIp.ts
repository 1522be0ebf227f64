import { Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { AppConfig } from "../Config.ts"

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is reported as `127.0.0.1`. */
const normalize = (ip: string) => ip.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1")

/**
 * The caller's IP: the socket peer, or, only when TRUST_PROXY is set, the left-most `X-Forwarded-For` entry
 * (the client as the first proxy saw it). Without a trusted proxy the header is ignored: anyone can send it.
 */
export const callerIp = Effect.gen(function*() {
  const { trustProxy } = yield* AppConfig
  const request = yield* HttpServerRequest.HttpServerRequest
  return callerIpOf(trustProxy, request.headers["x-forwarded-for"], Option.getOrUndefined(request.remoteAddress))
})

/** The same, from the raw parts (the HTTP fast lane answers before any Effect request exists). */
export const callerIpOf = (trustProxy: boolean, forwardedFor: string | undefined, remoteAddress: string | undefined) => {
  const forwarded = forwardedFor?.split(",")[0]
  if (trustProxy && forwarded !== undefined && forwarded.trim() !== "") return normalize(forwarded)
  return remoteAddress === undefined ? "unknown" : normalize(remoteAddress)
}
