import { BlockList, isIP } from "node:net"

/**
 * The address ranges a web-push delivery must never connect to (docs/SECURITY.md threat 6): everything that is not
 * a public unicast address, after the IANA IPv4 and IPv6 Special-Purpose Address Registries. Push services are
 * public by definition, so a subscription whose endpoint lands here is an attempt to reach the operator's network.
 *
 * The ranges are `net.BlockList`s, one per kind, so the check is Node's own address parsing: IPv4-mapped IPv6
 * (`::ffff:10.0.0.1`, `::ffff:a00:1`) matches the IPv4 rules natively, zone ids (`fe80::1%eth0`) are understood.
 * NAT64 (`64:ff9b::/96`, RFC 6052) embeds an IPv4 address too, but BlockList does not map it: each IPv4 range is
 * added again in its NAT64 form, so `64:ff9b::10.0.0.1` is private while `64:ff9b::8.8.8.8` (DNS64 on an
 * IPv6-only host) stays public.
 */

type Range = readonly [network: string, prefix: number]

/** First match wins, so the narrower names come before "reserved" (2001::/32 Teredo lies inside 2001::/23). */
const kinds: ReadonlyArray<readonly [kind: string, v4: ReadonlyArray<Range>, v6: ReadonlyArray<Range>]> = [
  ["unspecified", [["0.0.0.0", 8]], [["::", 128]]],
  ["loopback", [["127.0.0.0", 8]], [["::1", 128]]],
  [
    "private",
    [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16]
    ],
    [["fc00::", 7]]
  ],
  // 169.254.169.254 (and fd00:ec2::254) is the cloud instance metadata service.
  ["link-local", [["169.254.0.0", 16]], [["fe80::", 10]]],
  ["shared (CGNAT)", [["100.64.0.0", 10]], []],
  ["broadcast", [["255.255.255.255", 32]], []],
  ["multicast", [["224.0.0.0", 4]], [["ff00::", 8]]],
  // Tunnels that embed an arbitrary IPv4 address (deprecated 6to4, RFC 7526; Teredo, RFC 4380).
  [
    "tunnel",
    [],
    [
      ["2002::", 16],
      ["2001::", 32]
    ]
  ],
  [
    "reserved",
    [
      ["192.0.0.0", 24], // IETF protocol assignments
      ["192.0.2.0", 24], // TEST-NET-1
      ["192.88.99.0", 24], // 6to4 relay anycast
      ["198.18.0.0", 15], // benchmarking
      ["198.51.100.0", 24], // TEST-NET-2
      ["203.0.113.0", 24], // TEST-NET-3
      ["240.0.0.0", 4] // class E
    ],
    [
      ["fec0::", 10], // site-local (deprecated)
      ["100::", 64], // discard-only
      ["64:ff9b:1::", 48], // local-use NAT64
      ["2001::", 23], // IETF protocol assignments (ORCHID, benchmarking, ...)
      ["2001:db8::", 32], // documentation
      ["3fff::", 20], // documentation
      ["5f00::", 16] // SRv6 SIDs
    ]
  ]
]

const lists: ReadonlyArray<readonly [string, BlockList]> = kinds.map(([kind, v4, v6]) => {
  const list = new BlockList()
  for (const [network, prefix] of v4) {
    list.addSubnet(network, prefix, "ipv4") // also matches the IPv4-mapped IPv6 form
    list.addSubnet(`64:ff9b::${network}`, 96 + prefix, "ipv6") // the NAT64 form
  }
  for (const [network, prefix] of v6) list.addSubnet(network, prefix, "ipv6")
  return [kind, list] as const
})

/**
 * IPv6 outside these is reserved: IANA allocates unicast only from 2000::/3. The mapped and NAT64 prefixes carry
 * an IPv4 address the lists above already judged.
 */
const routableV6 = new BlockList()
routableV6.addSubnet("2000::", 3, "ipv6")
routableV6.addSubnet("::ffff:0:0", 96, "ipv6")
routableV6.addSubnet("64:ff9b::", 96, "ipv6")

/**
 * The kind of blocked range `address` (an IP address, as DNS returns it) lies in, e.g. "loopback" or "private";
 * undefined for a public unicast address. Anything that is not an IP address is refused ("invalid").
 */
export const blockedRangeOf = (address: string): string | undefined => {
  const family = isIP(address)
  if (family === 0) return "invalid"
  const type = family === 4 ? "ipv4" : "ipv6"
  for (const [kind, list] of lists) {
    if (list.check(address, type)) return kind
  }
  return family === 6 && !routableV6.check(address, "ipv6") ? "reserved" : undefined
}

/** "a loopback address", "an unspecified address": for messages. */
export const describeRange = (range: string) => `${/^[aeiu]/.test(range) ? "an" : "a"} ${range} address`
