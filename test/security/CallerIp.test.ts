import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"

/**
 * Issue 23 M1: behind a proxy that appends to X-Forwarded-For (nginx, ALB) the client writes the left of the header,
 * so per-IP limits key on the right-most entry no trusted proxy wrote, validated as an IP; IPv6 counts per /64.
 * The exchange's public routes (limit 3 here) stand for every per-IP limit: they all take the key from CallerIp.ts.
 */
const LIMIT = 3

const ipOf = (forwardedFor: string) =>
  Effect.map(
    Effect.flatMap(baseUrl("client"), (base) =>
      fetchJson(`${base}/v1/ip`, { headers: { "x-forwarded-for": forwardedFor } })
    ),
    (res) => res.body.ip as string
  )

/** Statuses of the exchange's health route, one request per X-Forwarded-For value. */
const statuses = (forwardedFor: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const url = `${yield* baseUrl("exchange")}/api/health`
    const out: Array<number> = []
    for (const value of forwardedFor)
      out.push((yield* fetchJson(url, { headers: { "x-forwarded-for": value } })).status)
    return out
  })

layer(
  TestServices(
    ["client", "exchange"],
    { trustProxy: true, trustedProxyHops: 1 },
    {
      exchangePublic: { limit: LIMIT, windowSeconds: 600 },
      store: "memory"
    }
  ),
  { timeout: "60 seconds" }
)("one trusted proxy hop (TRUSTED_PROXY_HOPS=1)", (it) => {
  it.effect("the caller is the right-most X-Forwarded-For entry (the one the proxy appended)", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* ipOf("203.0.113.7, 198.51.100.1"), "198.51.100.1")
      assert.strictEqual(yield* ipOf("198.51.100.1"), "198.51.100.1")
    })
  )

  it.effect("an entry that is not an IP address is not believed: the proxy (socket peer) stands for the caller", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* ipOf("198.51.100.1, not-an-ip"), "127.0.0.1")
      assert.strictEqual(yield* ipOf("198.51.100.1, 999.1.1.1"), "127.0.0.1")
    })
  )

  it.effect("a fresh left-most entry per request does not escape the per-IP limit", () =>
    Effect.gen(function* () {
      const got = yield* statuses(Array.from({ length: LIMIT + 2 }, (_, i) => `10.9.${i}.1, 198.51.100.50`))
      assert.deepStrictEqual(got, [200, 200, 200, 429, 429])
    })
  )

  it.effect("IPv6 callers are counted per /64: rotating the interface id does not escape the limit", () =>
    Effect.gen(function* () {
      const got = yield* statuses(Array.from({ length: LIMIT + 2 }, (_, i) => `2001:db8:5:7:${i.toString(16)}::1`))
      assert.deepStrictEqual(got, [200, 200, 200, 429, 429])
      // Another /64 has its own bucket.
      assert.deepStrictEqual(yield* statuses(["2001:db8:5:8::1"]), [200])
    })
  )
})

layer(
  TestServices(["client"], { trustProxy: true, trustedProxyHops: 1, trustedProxies: ["127.0.0.1", "10.0.0.0/8"] }),
  { timeout: "60 seconds" }
)("trusted proxy ranges (TRUSTED_PROXIES)", (it) => {
  it.effect("hops inside the ranges are skipped right to left; the first one outside is the caller", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* ipOf("203.0.113.9, 198.51.100.3, 10.1.2.3, 10.4.5.6"), "198.51.100.3")
      // All trusted: the left-most hop is as far as the chain goes.
      assert.strictEqual(yield* ipOf("10.1.2.3"), "10.1.2.3")
    })
  )
})
