import { Context, Effect, Layer, Option, Redacted } from "effect"
import * as NodeFs from "node:fs"
import webpush from "web-push"
import { pushAgent, RefusedAddress } from "./PushAgent.ts"
import { PushConfig } from "./PushConfig.ts"
import { VapidKeys } from "./VapidKeys.ts"

export interface PushTarget {
  readonly endpoint: string
  readonly keys: { readonly p256dh: string; readonly auth: string }
}

/** What one delivery attempt came to, as the worker needs it. */
export type PushOutcome =
  | { readonly _tag: "Delivered"; readonly status: number }
  /** 404/410: the subscription is gone for good (RFC 8030 §7.3); remove it. */
  | { readonly _tag: "Gone"; readonly status: number }
  /**
   * Nothing was sent: the endpoint's host is, or resolves to, a private/loopback/link-local/reserved address
   * (src/client-api/notifications/push/PushAgent.ts). The worker removes the subscription, as for Gone, rather than dropping only this
   * message: the endpoint is a property of the subscription, so every later message would be refused the same way
   * (a row that costs a lookup per notification for ever, and a standing probe an attacker can time against DNS
   * changes). A legitimate browser whose push service resolved oddly for a moment subscribes again on its next
   * visit, as it does after a 410. Permanent, so never retried.
   */
  | { readonly _tag: "Refused"; readonly error: string }
  /** 5xx, 429 or no answer (network, timeout): try again later. */
  | { readonly _tag: "Retry"; readonly status: number | null; readonly error: string }
  /** Any other 4xx: this message will never be accepted (too large, bad VAPID, ...); drop it. */
  | { readonly _tag: "Rejected"; readonly status: number; readonly error: string }

export const classify = (status: number | null, error: string): PushOutcome => {
  if (status === null) return { _tag: "Retry", status, error }
  if (status >= 200 && status < 300) return { _tag: "Delivered", status }
  if (status === 404 || status === 410) return { _tag: "Gone", status }
  if (status >= 500 || status === 429) return { _tag: "Retry", status, error }
  return { _tag: "Rejected", status, error }
}

/**
 * Sends one message with `web-push`: the payload encrypted for the subscription (RFC 8291, aes128gcm), a VAPID
 * JWT (RFC 8292), and TTL and Urgency headers (RFC 8030). Never fails: the outcome says what happened.
 */
export class PushSender extends Context.Service<
  PushSender,
  {
    readonly send: (
      target: PushTarget,
      payload: string,
      options: { readonly urgency: "low" | "normal" | "high" }
    ) => Effect.Effect<PushOutcome>
  }
>()("app/push/PushSender") {
  static readonly layer = Layer.effect(
    PushSender,
    Effect.gen(function* () {
      const config = yield* PushConfig
      // Node's roots plus PUSH_CA_FILE: certificates stay verified, a private CA is only added. Unless
      // PUSH_ALLOW_PRIVATE_HOSTS, the agent refuses blocked addresses at connection time (SECURITY.md threat 6).
      const agent = pushAgent({
        ca: Option.isNone(config.caFile) ? undefined : NodeFs.readFileSync(config.caFile.value, "utf8"),
        allowPrivateHosts: config.allowPrivateHosts
      })
      const vapid = yield* VapidKeys
      const vapidDetails = {
        subject: vapid.subject,
        publicKey: vapid.publicKey,
        privateKey: Redacted.value(vapid.privateKey)
      }
      return PushSender.of({
        send: (target, payload, options) =>
          Effect.tryPromise({
            try: () =>
              webpush.sendNotification({ endpoint: target.endpoint, keys: { ...target.keys } }, payload, {
                vapidDetails,
                TTL: config.ttlSeconds,
                urgency: options.urgency,
                timeout: config.requestTimeoutMs,
                contentEncoding: "aes128gcm",
                agent
              }),
            catch: (error) => error
          }).pipe(
            Effect.map((result) => classify(result.statusCode, "")),
            Effect.catch((error) =>
              Effect.succeed(
                error instanceof webpush.WebPushError
                  ? classify(error.statusCode, `${error.statusCode} ${error.body}`.slice(0, 500))
                  : error instanceof RefusedAddress
                    ? { _tag: "Refused" as const, error: error.message }
                    : classify(null, error instanceof Error ? error.message : String(error))
              )
            ),
            Effect.withSpan("PushSender.send")
          )
      })
    })
  )
}
