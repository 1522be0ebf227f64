import { assert, describe, it } from "@effect/vitest"
import { backoffMs } from "../../src/client-api/notifications/push/PushConfig.ts"
import { classify } from "../../src/client-api/notifications/push/PushSender.ts"

describe("push outcomes", () => {
  it("2xx delivered, 404/410 gone, 5xx/429/no answer retried, other 4xx rejected", () => {
    assert.deepStrictEqual(
      [200, 201, 202].map((s) => classify(s, "")._tag),
      ["Delivered", "Delivered", "Delivered"]
    )
    assert.deepStrictEqual(
      [404, 410].map((s) => classify(s, "")._tag),
      ["Gone", "Gone"]
    )
    assert.deepStrictEqual(
      [500, 502, 503, 429].map((s) => classify(s, "")._tag),
      ["Retry", "Retry", "Retry", "Retry"]
    )
    assert.strictEqual(classify(null, "ECONNREFUSED")._tag, "Retry")
    assert.deepStrictEqual(
      [400, 401, 403, 413].map((s) => classify(s, "")._tag),
      ["Rejected", "Rejected", "Rejected", "Rejected"]
    )
  })

  it("backoff doubles per attempt up to the cap", () => {
    const settings = { retryBaseMs: 2000, retryMaxMs: 60_000 }
    assert.deepStrictEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(settings, n)),
      [2000, 4000, 8000, 16000, 32000, 60000, 60000]
    )
  })
})
