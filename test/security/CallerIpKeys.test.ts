import { assert, describe, it } from "@effect/vitest"
import { blockListOf, callerIpOf, ipLimitKey } from "../../src/platform/system/CallerIp.ts"

describe("per-IP limit keys (issue 23 M1)", () => {
  it("an IPv6 address is keyed by its /64, however it is written", () => {
    assert.strictEqual(ipLimitKey("2001:db8:5:7::1"), "2001:db8:5:7::/64")
    assert.strictEqual(ipLimitKey("2001:0DB8:0005:0007:ffff:1:2:3"), "2001:db8:5:7::/64")
    assert.strictEqual(ipLimitKey("2001:db8::1"), "2001:db8:0:0::/64")
    assert.strictEqual(ipLimitKey("::1"), "0:0:0:0::/64")
    assert.strictEqual(ipLimitKey("fe80::1%eth0"), "fe80:0:0:0::/64")
  })

  it("an IPv4 address is its own key", () => {
    assert.strictEqual(ipLimitKey("198.51.100.1"), "198.51.100.1")
  })

  it("without TRUST_PROXY the header is ignored; with two hops the second entry from the right is the caller", () => {
    const off = { enabled: false, hops: 1, cidrs: undefined }
    assert.strictEqual(callerIpOf(off, "198.51.100.1", "127.0.0.1"), "127.0.0.1")
    const two = { enabled: true, hops: 2, cidrs: undefined }
    assert.strictEqual(callerIpOf(two, "203.0.113.1, 198.51.100.1, 10.0.0.2", "10.0.0.1"), "198.51.100.1")
    // Fewer entries than hops: the left-most there is.
    assert.strictEqual(callerIpOf(two, "198.51.100.1", "10.0.0.1"), "198.51.100.1")
    assert.strictEqual(callerIpOf(two, undefined, "::ffff:10.0.0.1"), "10.0.0.1")
  })

  it("with ranges, a socket peer outside them means the header was not written by a proxy of ours", () => {
    const trust = { enabled: true, hops: 1, cidrs: blockListOf(["10.0.0.0/8"]) }
    assert.strictEqual(callerIpOf(trust, "198.51.100.1", "203.0.113.5"), "203.0.113.5")
    assert.strictEqual(callerIpOf(trust, "198.51.100.1", "10.0.0.5"), "198.51.100.1")
  })

  it("a TRUSTED_PROXIES entry that is not an address is refused", () => {
    assert.throws(() => blockListOf(["10.0.0.0/8", "proxy.internal"]), /TRUSTED_PROXIES: "proxy.internal"/)
  })
})
