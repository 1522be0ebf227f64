import { assert, describe, it } from "@effect/vitest"
import { blockedRangeOf } from "../../src/client-api/notifications/push/BlockedAddresses.ts"
import { endpointHostProblem } from "../../src/client-api/notifications/push/PushEndpointPolicy.ts"

/** The address classifier of the push SSRF checks (docs/SECURITY.md threat 6), over a table of addresses. */

const blocked: ReadonlyArray<readonly [address: string, range: string]> = [
  // IPv4
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["169.254.169.254", "link-local"],
  ["100.64.0.1", "shared (CGNAT)"],
  ["100.127.255.255", "shared (CGNAT)"],
  ["255.255.255.255", "broadcast"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "reserved"],
  ["198.18.0.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  // IPv6
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["fc00::1", "private"],
  ["fd00:ec2::254", "private"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["FE80::ABCD", "link-local"],
  ["ff02::1", "multicast"],
  ["2002:c0a8:0101::1", "tunnel"],
  ["2001:0:4136:e378::1", "tunnel"],
  ["2001:db8::1", "reserved"],
  ["3fff::1", "reserved"],
  ["fec0::1", "reserved"],
  ["100::1", "reserved"],
  ["::127.0.0.1", "reserved"], // IPv4-compatible (deprecated)
  ["4000::1", "reserved"], // outside 2000::/3, unallocated
  // IPv4-mapped IPv6, dotted and hex, and NAT64
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:169.254.169.254", "link-local"],
  ["::ffff:a9fe:a9fe", "link-local"],
  ["::ffff:100.64.0.1", "shared (CGNAT)"],
  ["::ffff:0.0.0.0", "unspecified"],
  ["::ffff:255.255.255.255", "broadcast"],
  ["64:ff9b::10.0.0.1", "private"],
  ["64:ff9b::a9fe:a9fe", "link-local"],
  // not addresses at all (fail closed)
  ["localhost", "invalid"],
  ["[::1]", "invalid"],
  ["", "invalid"]
]

const allowed = [
  "8.8.8.8",
  "142.250.185.74", // fcm.googleapis.com
  "172.32.0.1",
  "100.128.0.1",
  "169.255.0.1",
  "223.255.255.255",
  "2a00:1450:4001:80b::200e",
  "2606:4700::6810:84e5",
  "::ffff:8.8.8.8",
  "::ffff:808:808",
  "64:ff9b::8.8.8.8" // DNS64 on an IPv6-only host
]

describe("blocked push addresses", () => {
  it("loopback, private, link-local, CGNAT, unspecified, multicast, broadcast, reserved (v4, v6, v4-mapped, NAT64)", () => {
    const got = blocked.map(([address]) => [address, blockedRangeOf(address)])
    assert.deepStrictEqual(
      got,
      blocked.map(([address, range]) => [address, range])
    )
  })

  it("public unicast addresses pass", () => {
    assert.deepStrictEqual(
      allowed.map((a) => [a, blockedRangeOf(a)]),
      allowed.map((a) => [a, undefined])
    )
  })

  it("subscribe-time check: blocked IP literals (any spelling WHATWG normalises) and localhost names; no DNS", () => {
    const refused: ReadonlyArray<readonly [string, string]> = [
      ["https://127.0.0.1/x", "127.0.0.1"],
      ["https://[::1]:8443/x", "::1"],
      ["https://169.254.169.254/latest/meta-data", "169.254.169.254"],
      ["https://10.0.0.1/x", "10.0.0.1"],
      ["https://2130706433/x", "127.0.0.1"], // decimal IPv4
      ["https://0x7f.1/x", "127.0.0.1"], // hex and short form
      ["https://[::ffff:169.254.169.254]/x", "::ffff:a9fe:a9fe"],
      ["https://localhost/x", "localhost"],
      ["https://LOCALHOST./x", "localhost."],
      ["https://push.localhost:3000/x", "push.localhost"]
    ]
    assert.deepStrictEqual(
      refused.map(([url]) => [url, endpointHostProblem(url)?.host]),
      refused.map((r) => [...r])
    )
    assert.strictEqual(endpointHostProblem("https://127.0.0.1/x")?.reason, "a loopback address")
    for (const url of [
      "https://fcm.googleapis.com/fcm/send/x",
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://8.8.8.8/x",
      "https://[2a00:1450:4001::1]/x",
      "https://localhost.example.com/x",
      "https://mylocalhost/x"
    ]) {
      assert.isUndefined(endpointHostProblem(url), url)
    }
  })
})
