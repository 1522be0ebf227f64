import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { servicesLayer } from "../../layers/App.ts"
import { AppConfig, type AppSettings, type ServiceName, ServiceNames } from "../../src/Config.ts"
import { Listening } from "../../src/Http.ts"
import { defaultRateLimitSettings, type RateLimitSettings } from "../../src/ratelimit/RateLimitConfig.ts"
import { RateLimitConfig } from "../../src/ratelimit/RateLimiter.ts"
import { AnvilChain } from "./AnvilChain.ts"
import { TestDatabase } from "./TestDatabase.ts"

export const testSettings = (overrides: Partial<AppSettings> = {}): AppSettings => ({
  dataDir: "./data",
  ports: { client: 0, exchange: 0, search: 0, indexer: 0 },
  host: "127.0.0.1",
  trustProxy: false,
  maxBodyBytes: 1_048_576,
  accessLog: false,
  healthProbeTtlMs: 0,
  ...overrides
})

/**
 * The selected services on ephemeral ports over a fresh test database and a fresh anvil restored from the seeded
 * devnet state: the same layers `npm start` builds, minus the embedded database and the process runtime.
 */
export const TestServices = (
  services: ReadonlyArray<ServiceName> = ServiceNames,
  overrides: Partial<AppSettings> = {},
  rateLimits: Partial<RateLimitSettings> = {}
) =>
  servicesLayer(services).pipe(
    Layer.provideMerge(Layer.mergeAll(
      AppConfig.layerWith(testSettings(overrides)),
      Listening.layer,
      // Postgres counters (the default without REDIS_URL) with a limit no other test reaches.
      RateLimitConfig.layerWith({ ...defaultRateLimitSettings, store: "postgres", ...rateLimits })
    )),
    Layer.provideMerge(Layer.mergeAll(TestDatabase, AnvilChain.chainLayer)),
    Layer.provideMerge(NodeServices.layer)
  )

/** Base URL of a started service. */
export const baseUrl = (service: ServiceName) =>
  Effect.map(Listening, (listening) => {
    const url = listening.get(service)
    if (url === undefined) throw new Error(`${service} is not listening`)
    return url
  })

export const fetchJson = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON: keep the text so the assertion shows it
    }
    return { status: response.status, headers: response.headers, body: body as any }
  })
