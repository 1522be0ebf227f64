import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { afterEach, expect, it as vit } from "vitest"
import {
  checkProductionSettings,
  type ProductionInputs,
  unsafeProductionSettings
} from "../../src/platform/system/ProductionChecks.ts"
import { exitOrReady, spawnApp, stopLeftoverApps } from "../lifecycle/AppProcess.ts"

/**
 * Production mode (issue 23): FIRE_ENV=production (the default with RPC_URL) refuses to start with unsafe settings,
 * naming each. One case per refusal on the pure check, the mode's defaults through the environment, and the real
 * app refusing in one line before it touches the database or the chain.
 */
const safe: ProductionInputs = {
  services: ["client", "exchange", "search", "indexer"],
  siweDomains: "app.example.com",
  quoteApiKeys: "acme:fq_0123456789",
  quoteOpen: Option.none(),
  cookieSecure: true,
  pushAllowPrivateHosts: false,
  jwtSecretSet: true,
  corsOrigins: "https://app.example.com",
  metricsTokenSet: true,
  host: "0.0.0.0",
  metricsOwnListener: false,
  metricsHost: "127.0.0.1"
}

const refusal = (overrides: Partial<ProductionInputs>) => {
  const problems = unsafeProductionSettings({ ...safe, ...overrides })
  assert.strictEqual(problems.length, 1, JSON.stringify(problems))
  return problems[0]!
}

describe("production mode: each unsafe setting is refused by name", () => {
  it("safe settings pass", () => {
    assert.deepStrictEqual(unsafeProductionSettings(safe), [])
  })
  it("no SIWE_DOMAINS", () => {
    assert.match(refusal({ siweDomains: "" }), /^SIWE_DOMAINS is unset/)
  })
  it("no partner keys without an explicit QUOTE_OPEN (either value is explicit)", () => {
    assert.match(refusal({ quoteApiKeys: "" }), /^QUOTE_API_KEYS is empty and QUOTE_OPEN is not set/)
    assert.deepStrictEqual(unsafeProductionSettings({ ...safe, quoteApiKeys: "", quoteOpen: Option.some(false) }), [])
    assert.deepStrictEqual(unsafeProductionSettings({ ...safe, quoteApiKeys: "", quoteOpen: Option.some(true) }), [])
  })
  it("COOKIE_SECURE=false", () => {
    assert.match(refusal({ cookieSecure: false }), /^COOKIE_SECURE=false/)
  })
  it("PUSH_ALLOW_PRIVATE_HOSTS", () => {
    assert.match(refusal({ pushAllowPrivateHosts: true }), /^PUSH_ALLOW_PRIVATE_HOSTS=true/)
  })
  it("a generated JWT_SECRET", () => {
    assert.match(refusal({ jwtSecretSet: false }), /^JWT_SECRET is unset/)
  })
  it("CORS_ORIGINS=*", () => {
    assert.match(refusal({ corsOrigins: "*" }), /^CORS_ORIGINS has \*/)
    assert.match(refusal({ corsOrigins: "https://app.example.com, *" }), /^CORS_ORIGINS has \*/)
  })
  it("/metrics on a public address without METRICS_TOKEN; loopback HOST is fine", () => {
    assert.match(refusal({ metricsTokenSet: false }), /^METRICS_TOKEN is unset while HOST=0\.0\.0\.0/)
    assert.deepStrictEqual(unsafeProductionSettings({ ...safe, metricsTokenSet: false, host: "127.0.0.1" }), [])
  })
  it("/metrics on its own listener (METRICS_PORT): a private or loopback METRICS_HOST needs no token, a public one does", () => {
    const own = { ...safe, metricsTokenSet: false, metricsOwnListener: true }
    for (const metricsHost of ["127.0.0.1", "::1", "10.1.2.3", "172.20.0.9", "192.168.1.5", "fd00::5"]) {
      assert.deepStrictEqual(unsafeProductionSettings({ ...own, metricsHost }), [], metricsHost)
    }
    for (const metricsHost of ["0.0.0.0", "::", "203.0.113.7", "172.32.0.1", "2001:db8::1"]) {
      assert.match(refusal({ ...own, metricsHost }), /^METRICS_TOKEN is unset while METRICS_HOST=/, metricsHost)
    }
    assert.deepStrictEqual(unsafeProductionSettings({ ...own, metricsTokenSet: true, metricsHost: "0.0.0.0" }), [])
  })
  it("only the services a process runs are looked at", () => {
    assert.deepStrictEqual(
      unsafeProductionSettings({
        ...safe,
        services: ["indexer"],
        siweDomains: "",
        quoteApiKeys: "",
        jwtSecretSet: false
      }),
      []
    )
  })
})

const check = (env: Record<string, string>) =>
  checkProductionSettings(["client", "exchange"]).pipe(
    Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))),
    Effect.match({ onFailure: (e) => ("problems" in e ? e.problems.length : String(e)), onSuccess: (mode) => mode })
  )

describe("the mode's default", () => {
  it.effect("with RPC_URL it is production: the bare settings are refused (every check named)", () =>
    Effect.map(check({ RPC_URL: "https://rpc.example.com" }), (outcome) => assert.strictEqual(outcome, 4))
  )
  it.effect("without RPC_URL (the embedded devnet) it is development: nothing is checked", () =>
    Effect.map(check({}), (outcome) => assert.strictEqual(outcome, "development"))
  )
  it.effect("FIRE_ENV wins both ways", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* check({ RPC_URL: "https://rpc.example.com", FIRE_ENV: "development" }), "development")
      assert.strictEqual(yield* check({ FIRE_ENV: "production" }), 4)
    })
  )
})

describe("the real app", () => {
  afterEach(stopLeftoverApps)
  vit(
    "refuses to start in production with unsafe settings: exit 1, one line naming each",
    async () => {
      const app = spawnApp(
        {
          FIRE_ENV: "production",
          RPC_URL: "http://127.0.0.1:9",
          DATA_DIR: "/nonexistent/never-created",
          COOKIE_SECURE: "false",
          PUSH_ALLOW_PRIVATE_HOSTS: "true",
          CORS_ORIGINS: "*"
        },
        ["--services", "client,exchange"]
      )
      expect(await exitOrReady(app)).toBe(1)
      const errors = app
        .output()
        .split("\n")
        .filter((line) => /\bERROR\b/.test(line))
      expect(errors, app.output()).toHaveLength(1)
      for (const name of [
        "SIWE_DOMAINS",
        "QUOTE_API_KEYS",
        "COOKIE_SECURE",
        "PUSH_ALLOW_PRIVATE_HOSTS",
        "JWT_SECRET",
        "CORS_ORIGINS",
        "METRICS_TOKEN"
      ]) {
        expect(errors[0]).toContain(name)
      }
    },
    60_000
  )
})
