import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit, Option, Redacted } from "effect"
import { sessionSettingsConfig } from "../../src/client-api/accounts/sessions/SessionConfig.ts"

const read = (env: Record<string, string>) =>
  Effect.gen(function* () {
    return yield* sessionSettingsConfig
  }).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))

describe("session configuration (environment variables)", () => {
  it.effect("defaults: generated key, 7-day JWTs, Secure cookie, any domain/chain, 1 s cache, no IdP, no admins", () =>
    Effect.gen(function* () {
      const settings = yield* read({})
      assert.isTrue(Option.isNone(settings.jwtSecret))
      assert.strictEqual(Duration.toMillis(settings.jwtTtl), 7 * 24 * 3600 * 1000)
      assert.isTrue(settings.cookieSecure)
      assert.deepStrictEqual([settings.siweDomains, settings.siweChainIds, settings.adminWallets], [[], [], []])
      assert.strictEqual(settings.sessionCacheMs, 1000)
      assert.isTrue(Option.isNone(settings.idp))
    })
  )

  it.effect("parses the documented forms", () =>
    Effect.gen(function* () {
      const settings = yield* read({
        JWT_SECRET: "s".repeat(32),
        JWT_TTL: "12 hours",
        COOKIE_SECURE: "false",
        SIWE_DOMAINS: "App.Example.com, localhost:3000",
        SIWE_CHAIN_IDS: "8453,31337",
        SESSION_CACHE_MS: "0",
        ADMIN_WALLETS: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        IDP_ISSUER: "https://idp.example",
        IDP_JWKS_URL: "https://idp.example/.well-known/jwks.json",
        IDP_AUDIENCE: "fire"
      })
      assert.strictEqual(Redacted.value(Option.getOrThrow(settings.jwtSecret)), "s".repeat(32))
      assert.strictEqual(Duration.toMillis(settings.jwtTtl), 12 * 3600 * 1000)
      assert.isFalse(settings.cookieSecure)
      assert.deepStrictEqual(settings.siweDomains, ["app.example.com", "localhost:3000"])
      assert.deepStrictEqual(settings.siweChainIds, [8453, 31337])
      assert.strictEqual(settings.sessionCacheMs, 0)
      assert.deepStrictEqual(settings.adminWallets, ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"])
      assert.strictEqual(Option.getOrThrow(settings.idp).audience, "fire")
    })
  )

  it.effect("refuses a short JWT_SECRET, bad lists, a cache over 1 s, and a partial IdP configuration", () =>
    Effect.gen(function* () {
      const invalid: ReadonlyArray<Record<string, string>> = [
        { JWT_SECRET: "short" },
        { JWT_TTL: "soon" },
        { SIWE_CHAIN_IDS: "1,abc" },
        { SESSION_CACHE_MS: "5000" },
        { ADMIN_WALLETS: "0x123" },
        { IDP_ISSUER: "https://idp.example" },
        { IDP_ISSUER: "a", IDP_JWKS_URL: "not a url", IDP_AUDIENCE: "b" }
      ]
      for (const env of invalid) {
        assert.isTrue(Exit.isFailure(yield* Effect.exit(read(env))), JSON.stringify(env))
      }
    })
  )
})
