import { assert, describe, it } from "@effect/vitest"
import type { LookupAddress } from "node:dns"
import { Agent, request } from "node:https"
import { createServer, type LookupFunction, type Server } from "node:net"
import { guardedLookup, pushAgent, RefusedAddress } from "../../src/client-api/notifications/push/PushAgent.ts"

/**
 * The delivery-time SSRF check (docs/SECURITY.md threat 6) on real sockets: a TCP server on 127.0.0.1 counts the
 * connections that reach it, and requests go through the push Agent the way web-push sends them (https.request with
 * `hostname`, `port` and `agent`).
 */

const withServer = async <A>(f: (port: number, connections: () => number) => Promise<A>): Promise<A> => {
  let connections = 0
  const server: Server = createServer((socket) => {
    connections++
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    return await f((server.address() as { port: number }).port, () => connections)
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** Sends a POST as web-push does and returns the error it ends with (a TCP server that hangs up always gives one). */
const post = (agent: Agent, hostname: string, port: number) =>
  new Promise<Error>((resolve) => {
    const req = request({ hostname, port, path: "/push", method: "POST", agent, timeout: 5_000 }, () =>
      resolve(new Error("answered"))
    )
    req.on("error", resolve)
    req.end("x")
  })

const lookup = (hostname: string, all: boolean) =>
  new Promise<{ error: Error | null; address: string | ReadonlyArray<LookupAddress> }>((resolve) =>
    guardedLookup(hostname, { all }, (error, address) => resolve({ error, address }))
  )

describe("push agent", () => {
  it("Node does not call an Agent's lookup for an IP-literal host, so the Agent has to check those itself", () =>
    withServer(async (port, connections) => {
      let lookups = 0
      const counting: LookupFunction = (hostname, options, callback) => {
        lookups++
        guardedLookup(hostname, options, callback)
      }
      await post(new Agent({ lookup: counting }), "127.0.0.1", port)
      assert.deepStrictEqual({ lookups, connections: connections() }, { lookups: 0, connections: 1 })
    }))

  it("refuses IP-literal and resolved blocked hosts before connecting; the error names host, address and range", () =>
    withServer(async (port, connections) => {
      const agent = pushAgent({ allowPrivateHosts: false })
      const cases: ReadonlyArray<readonly [host: string, range: string]> = [
        ["127.0.0.1", "loopback"], // IP literal: checked in createConnection
        ["::1", "loopback"],
        ["::ffff:127.0.0.1", "loopback"],
        ["localhost", "loopback"], // a name: checked in lookup on what it resolves to
        ["2130706433", "loopback"] // not an IP literal to Node, but getaddrinfo reads it as 127.0.0.1
      ]
      for (const [host, range] of cases) {
        const error = await post(agent, host, port)
        assert.instanceOf(error, RefusedAddress, `${host}: ${error.message}`)
        assert.strictEqual((error as RefusedAddress).range, range, host)
      }
      assert.strictEqual(connections(), 0, "no connection was opened")
      agent.destroy()
    }))

  it("with PUSH_ALLOW_PRIVATE_HOSTS the same hosts are reached", () =>
    withServer(async (port, connections) => {
      const agent = pushAgent({ allowPrivateHosts: true })
      for (const host of ["127.0.0.1", "localhost"]) assert.notInstanceOf(await post(agent, host, port), RefusedAddress)
      assert.strictEqual(connections(), 2)
      agent.destroy()
    }))

  it("the lookup refuses when any address is blocked, and passes public ones through in both lookup forms", async () => {
    for (const all of [false, true]) {
      const refused = await lookup("localhost", all)
      assert.instanceOf(refused.error, RefusedAddress)
      assert.match(
        refused.error!.message,
        /^push endpoint host localhost resolved to (127\.0\.0\.1|::1), a loopback address$/
      )
    }
    // A numeric host resolves to itself without a DNS server: the public-address path of the lookup, offline.
    assert.deepStrictEqual(await lookup("8.8.8.8", false), { error: null, address: "8.8.8.8" })
    assert.deepStrictEqual(await lookup("8.8.8.8", true), { error: null, address: [{ address: "8.8.8.8", family: 4 }] })
  })
})
