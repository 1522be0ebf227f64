import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { servicesLayer } from "../../layers/App.ts"
import { AppConfig, type AppSettings, type ServiceName, ServiceNames } from "../../src/platform/AppConfig.ts"
import { Listening } from "../../src/platform/http/Serve.ts"
import { defaultRateLimitSettings, type RateLimitSettings } from "../../src/platform/ratelimit/RateLimitConfig.ts"
import { RateLimitConfig } from "../../src/platform/ratelimit/RateLimiter.ts"
import { AnvilChain } from "./AnvilChain.ts"
import { TestDatabase } from "./TestDatabase.ts"

export const testSettings = (overrides: Partial<AppSettings> = {}): AppSettings => ({
  dataDir: "./data",
  ports: { client: 0, exchange: 0, search: 0, indexer: 0 },
  host: "127.0.0.1",
  trustProxy: false,
  trustedProxyHops: 1,
  trustedProxies: [],
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
) => {
  const started = servicesLayer(services).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        AppConfig.layerWith(testSettings(overrides)),
        Listening.layer,
        // Postgres counters (the default without REDIS_URL) with a limit no other test reaches. Every test calls
        // from 127.0.0.1: the client API's per-IP window is out of reach unless a test sets it.
        RateLimitConfig.layerWith({
          ...defaultRateLimitSettings,
          store: "postgres",
          clientIp: { limit: 1_000_000_000, windowSeconds: 60 },
          ...rateLimits
        })
      )
    ),
    Layer.provideMerge(Layer.mergeAll(TestDatabase, AnvilChain.chainLayer)),
    Layer.provideMerge(NodeServices.layer)
  )
  return services.includes("indexer") ? seededDevnetIndexed.pipe(Layer.provideMerge(started)) : started
}

/**
 * With the indexer, the tests start once it has indexed the seeded devnet up to the chain's head. The indexer
 * commits a long history in several batches (its range follows the log density), and a test that sees one indexed
 * entity must not conclude that the rest of the seeded history is there too.
 */
const seededDevnetIndexed = Layer.effectDiscard(
  Effect.gen(function* () {
    const chain = yield* AnvilChain
    const head = yield* Effect.promise(() => chain.blockNumber())
    const url = `${yield* baseUrl("indexer")}/v1/graphql`
    // Real timers, not Effect's clock: suites that keep the test services run this layer under a TestClock.
    yield* Effect.promise(async () => {
      const deadline = Date.now() + 60_000
      for (;;) {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ _meta { lastIndexedBlock } }" })
        })
        const indexed = ((await response.json()) as { data?: { _meta?: { lastIndexedBlock?: string | null } } }).data
          ?._meta?.lastIndexedBlock
        if (indexed != null && BigInt(indexed) >= head) return
        if (Date.now() > deadline) throw new Error(`the indexer did not reach block ${head} in 60 s (at ${indexed})`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })
  })
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
