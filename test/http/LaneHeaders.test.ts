import { assert, describe, it } from "@effect/vitest"
import { securityHeaderVariants } from "../../src/platform/http/HttpSecurity.ts"
import { makeEntryBlocks } from "../../src/platform/http/LaneHeaders.ts"
import type { CachedResponse } from "../../src/platform/http/ResponseCache.ts"
import { rateLimitHeaderPairs, rateLimitHeaders } from "../../src/platform/ratelimit/RateLimitHttp.ts"

/**
 * The fast lane's header blocks (src/platform/http/LaneHeaders.ts) and its flat limit headers: the names, values and
 * order the Effect path sends (the lanes' equality tests, test/exchange/FastLane.test.ts, test/client/ClientFastLane
 * .test.ts and test/search/SearchFastLane.test.ts, compare whole answers over HTTP; these pin each block).
 */
const entry = (body: string, etag: string | undefined): CachedResponse => ({
  body: new TextEncoder().encode(body),
  etag,
  storedAt: 0
})
const security = [
  "x-content-type-options",
  "nosniff",
  "x-frame-options",
  "DENY",
  "referrer-policy",
  "no-referrer",
  "content-security-policy",
  "frame-ancestors 'none'"
]
const hsts = ["strict-transport-security", "max-age=60; includeSubDomains"]

describe("fast lane header blocks", () => {
  const variants = securityHeaderVariants(60, true)
  const blocksOf = makeEntryBlocks(variants)

  it("an entry with a tag: tag and cache-control, then type and length (200 only), then the security headers", () => {
    const tagged = entry('{"a":"é"}', '"tag"')
    const blocks = blocksOf(tagged)
    const own = ["etag", '"tag"', "cache-control", "no-cache"]
    const body = ["content-type", "application/json", "content-length", "10"]
    assert.deepStrictEqual(blocks.ok[0], [...own, ...body, ...security])
    assert.deepStrictEqual(blocks.ok[1], [...own, ...body, ...security, ...hsts])
    assert.deepStrictEqual(blocks.notModified[0], [...own, ...security])
    assert.deepStrictEqual(blocks.notModified[1], [...own, ...security, ...hsts])
    assert.strictEqual(blocksOf(tagged), blocks, "built once per entry")
  })

  it("an entry without a tag: no tag headers; another entry has its own length", () => {
    const blocks = blocksOf(entry("[]", undefined))
    assert.deepStrictEqual(blocks.ok[0], ["content-type", "application/json", "content-length", "2", ...security])
    assert.deepStrictEqual(blocks.notModified[0], security)
  })

  it("HSTS only over TLS as the trusted proxy says (first hop), never without TRUST_PROXY", () => {
    assert.isTrue(variants.isTls("https"))
    assert.isTrue(variants.isTls("https, http"))
    assert.isFalse(variants.isTls("http, https"))
    assert.isFalse(variants.isTls(undefined))
    assert.isFalse(securityHeaderVariants(60, false).isTls("https"))
  })

  it("the limit headers as pairs = rateLimitHeaders, in order, for any decision", () => {
    const rule = { limit: 600, windowSeconds: 60 }
    const push = rateLimitHeaderPairs(rule)
    for (const decision of [
      { allowed: true, limit: 600, remaining: 599, resetSeconds: 60 },
      { allowed: true, limit: 600, remaining: 0, resetSeconds: 1 },
      { allowed: true, limit: 700, remaining: 12, resetSeconds: 30 }
    ]) {
      const out = ["x-request-id", "id"]
      push(out, decision)
      assert.deepStrictEqual(out, ["x-request-id", "id", ...Object.entries(rateLimitHeaders(decision, rule)).flat()])
    }
  })
})
