import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Redacted } from "effect"
import webpush from "web-push"
import { PushConfig } from "../../src/client-api/notifications/push/PushConfig.ts"
import { VapidKeys } from "../../src/client-api/notifications/push/VapidKeys.ts"
import { TestDatabase } from "../support/TestDatabase.ts"

const keysWith = (env: Record<string, string>) =>
  Effect.gen(function* () {
    return yield* VapidKeys
  }).pipe(
    Effect.provide(
      VapidKeys.layer.pipe(
        Layer.provide(PushConfig.layer),
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
      )
    )
  )

layer(TestDatabase, { excludeTestServices: true })("VAPID keys", (it) => {
  it.effect("generated once and persisted: every later start (and process) reads the same pair", () =>
    Effect.gen(function* () {
      const first = yield* Effect.all([keysWith({}), keysWith({}), keysWith({})], { concurrency: "unbounded" })
      const again = yield* keysWith({ VAPID_SUBJECT: "https://fire.example/contact" })
      for (const k of [...first, again]) {
        assert.strictEqual(k.publicKey, first[0]!.publicKey)
        assert.strictEqual(Redacted.value(k.privateKey), Redacted.value(first[0]!.privateKey))
      }
      assert.strictEqual(again.subject, "https://fire.example/contact")
    })
  )

  it.effect("VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY from the environment win; only one of them is a start-up error", () =>
    Effect.gen(function* () {
      const pair = webpush.generateVAPIDKeys()
      const fromEnv = yield* keysWith({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })
      assert.strictEqual(fromEnv.publicKey, pair.publicKey)
      assert.strictEqual(Redacted.value(fromEnv.privateKey), pair.privateKey)
      const half = yield* Effect.exit(keysWith({ VAPID_PUBLIC_KEY: pair.publicKey }))
      assert.isTrue(Exit.isFailure(half))
    })
  )
})
