import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest } from "../../../platform/ApiError.ts"
import { MAX_SUBSCRIPTIONS_PER_USER } from "./PushLimits.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const base64urlBytes = (bytes: number, test: (b: Buffer) => boolean, what: string) =>
  Schema.String.check(
    Schema.makeFilter(
      (s: string) =>
        /^[A-Za-z0-9_-]+={0,2}$/.test(s) &&
        (() => {
          const b = Buffer.from(s, "base64url")
          return b.length === bytes && test(b)
        })()
          ? undefined
          : what,
      {
        // Without it the check (and the field's description) would be missing from OpenAPI and the MCP tools.
        toJsonSchema: () => ({ pattern: `^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}={0,2}$` })
      }
    )
  )

const Endpoint = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.makeFilter((s: string) => (URL.parse(s)?.protocol === "https:" ? undefined : "an https: URL"), {
    toJsonSchema: () => ({ pattern: "^https://[^\\s/?#]+" })
  })
).annotate({
  description: "The push service URL of the subscription (https, ≤ 2048 characters)",
  examples: ["https://fcm.googleapis.com/fcm/send/dXJhbmRvbS1zdWJzY3JpcHRpb24"]
})

export const PushSubscriptionJson = Schema.Struct({
  endpoint: Endpoint,
  expirationTime: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({ description: "Epoch ms, or null" }),
  keys: Schema.Struct({
    p256dh: base64urlBytes(65, (b) => b[0] === 4, "an uncompressed P-256 public key (65 bytes, base64url)").annotate({
      description: "The browser's P-256 ECDH public key (uncompressed point, base64url)",
      examples: ["BAoWf6KDyaUd1d5iHCQUUarZetVi6Ri3LxdEiEWTkLNdoDOre4DZj61OT3pjWL1IjV8I2YS-VH-I3M7uCvjYkq0"]
    }),
    auth: base64urlBytes(16, () => true, "16 bytes, base64url").annotate({
      description: "The 16-byte auth secret (base64url)",
      examples: ["HASbMRehfVUmvIiAFemC7Q"]
    })
  })
}).annotate({ identifier: "PushSubscriptionJson", description: "The browser's `PushSubscription.toJSON()`" })

export class VapidKey extends Schema.Class<VapidKey>("VapidKey")({
  publicKey: Schema.String.annotate({
    description:
      "The VAPID public key (uncompressed P-256 point, base64url): `applicationServerKey` of pushManager.subscribe"
  })
}) {}

export class Unsubscribed extends Schema.Class<Unsubscribed>("Unsubscribed")({
  removed: Schema.Boolean.annotate({ description: "false when the caller had no subscription with this endpoint" })
}) {}

/** Web push registration. Delivery: every notification goes to every subscription of its user. */
export class PushApi extends HttpApiGroup.make("push")
  .add(
    HttpApiEndpoint.get("getVapidKey", "/v1/push/vapid-key", { success: VapidKey }).annotateMerge(
      doc(
        "VAPID public key",
        "For `pushManager.subscribe({ userVisibleOnly: true, applicationServerKey })`. It comes from VAPID_PUBLIC_KEY or " +
          "was generated on the first start and kept, so it does not change across restarts."
      )
    ),
    HttpApiEndpoint.post("subscribe", "/v1/push/subscribe", {
      payload: PushSubscriptionJson,
      success: HttpApiSchema.NoContent,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Subscribe this browser",
          "Body: the PushSubscription JSON. Idempotent per endpoint (an endpoint already registered, by anyone, now belongs " +
            `to the caller with the new keys). At most ${MAX_SUBSCRIPTIONS_PER_USER} per user: the oldest is dropped. ` +
            "Each notification is then pushed to it: the Notification JSON (see /v1/notifications), encrypted per RFC 8291 " +
            "(aes128gcm), VAPID-signed, TTL PUSH_TTL_SECONDS (default 86400), Urgency `low` for COMMENT_LIKE and `normal` " +
            "otherwise. A push service answering 404/410 removes the subscription; 5xx/429 are retried with exponential " +
            "backoff. Errors: 400 INVALID_BODY for a malformed subscription (not https, over 2048 characters, bad keys); " +
            "400 PUSH_ENDPOINT_NOT_ALLOWED when the endpoint's host is `localhost`/`*.localhost` or an IP literal that is " +
            "loopback, private, link-local (169.254.169.254), CGNAT, unspecified, multicast, broadcast or reserved " +
            "(`details.host`, `details.reason`; no DNS is resolved here). At delivery the resolved addresses are checked " +
            "the same way: a host that resolves to such an address gets nothing and its subscription is removed. " +
            "Both checks are off when the operator sets PUSH_ALLOW_PRIVATE_HOSTS (development)."
        )
      ),
    HttpApiEndpoint.post("unsubscribe", "/v1/push/unsubscribe", {
      payload: Schema.Struct({ endpoint: Endpoint }),
      success: Unsubscribed,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(doc("Unsubscribe", "Removes the caller's subscription of `endpoint`."))
  )
  .annotateMerge(OpenApi.annotations({ title: "Web push", description: "VAPID key and push subscriptions" })) {}
