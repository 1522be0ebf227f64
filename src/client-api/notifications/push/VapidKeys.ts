import { Context, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import webpush from "web-push"
import { PushConfig } from "./PushConfig.ts"

export interface VapidKeyPair {
  readonly publicKey: string
  readonly privateKey: Redacted.Redacted
  readonly subject: string
}

/**
 * The VAPID key pair the push messages are signed with: VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY when set, otherwise one
 * pair generated on the first start and kept in `app_settings`, so every process and every restart signs with the
 * same key (browsers bind a subscription to the public key it was made with).
 */
export class VapidKeys extends Context.Service<VapidKeys, VapidKeyPair>()("app/push/VapidKeys") {
  static readonly layer = Layer.effect(
    VapidKeys,
    Effect.gen(function* () {
      const config = yield* PushConfig
      if (Option.isSome(config.vapidPublicKey) !== Option.isSome(config.vapidPrivateKey)) {
        return yield* Effect.die(new Error("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither"))
      }
      if (Option.isSome(config.vapidPublicKey) && Option.isSome(config.vapidPrivateKey)) {
        return {
          publicKey: config.vapidPublicKey.value,
          privateKey: config.vapidPrivateKey.value,
          subject: config.vapidSubject
        }
      }
      const stored = yield* storedKeys
      return { publicKey: stored.publicKey, privateKey: Redacted.make(stored.privateKey), subject: config.vapidSubject }
    })
  )
}

/** Reads the generated pair, creating it first if no process has yet; concurrent first starts agree on one pair. */
const storedKeys = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const candidate = webpush.generateVAPIDKeys()
  yield* sql`
    INSERT INTO app_settings (name, value) VALUES ('vapid_keys', ${JSON.stringify(candidate)}::jsonb)
    ON CONFLICT (name) DO NOTHING`
  const rows = yield* sql<{ value: { publicKey?: unknown; privateKey?: unknown } }>`
    SELECT value FROM app_settings WHERE name = 'vapid_keys'`
  const value = rows[0]?.value
  if (typeof value?.publicKey !== "string" || typeof value.privateKey !== "string") {
    return yield* Effect.die(new Error("app_settings.vapid_keys is not a key pair"))
  }
  return { publicKey: value.publicKey, privateKey: value.privateKey }
}).pipe(Effect.orDie)
