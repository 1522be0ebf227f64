import { Effect, type Scope } from "effect"
import WebSocket from "ws"
import { backoffMs } from "../src/indexer/fetch/RpcError.ts"
import type { HeadAnnouncements } from "../src/platform/Chain.ts"
import { recordNewHeads } from "../src/platform/metrics/Metrics.ts"
import { redactUrl } from "../src/platform/RedactUrl.ts"

export interface NewHeadsSocketOptions {
  /** How often the socket is pinged; a socket that did not answer the previous ping is closed (default 15 s). */
  readonly pingIntervalMs?: number
}

/**
 * `eth_subscribe("newHeads")` over a WebSocket of its own, for the life of the scope. When the socket closes (a drop,
 * a restarting node, a ping left unanswered) it connects again after a backoff with jitter (0.1–0.2 s, doubling up to
 * 10 s, reset by a successful subscription) and subscribes again; it never gives up. A first connection that fails
 * does not fail the caller: heads are announced once the socket is up, and readers poll over HTTP meanwhile.
 */
export const subscribeNewHeads = (
  url: string,
  options: NewHeadsSocketOptions = {}
): Effect.Effect<HeadAnnouncements, never, Scope.Scope> =>
  Effect.gen(function* () {
    const pingIntervalMs = options.pingIntervalMs ?? 15_000
    const listeners = new Set<(head: bigint) => void>()
    let live = false
    const context = yield* Effect.context<never>()
    const log = (effect: Effect.Effect<void>) => Effect.runForkWith(context)(effect)

    /** One connection, from connect to close; `onLive` runs when its subscription is confirmed. */
    const connection = (onLive: () => void) =>
      Effect.callback<void>((resume) => {
        // A connect that hangs (a blackholed address) is given up like a refused one.
        const socket = new WebSocket(url, { handshakeTimeout: 10_000 })
        let answeredPing = true
        const ping = setInterval(() => {
          if (!answeredPing || socket.readyState !== WebSocket.OPEN) return socket.terminate()
          answeredPing = false
          socket.ping()
        }, pingIntervalMs)
        socket.on("pong", () => {
          answeredPing = true
        })
        socket.on("open", () =>
          socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }))
        )
        socket.on("message", (data) => {
          const message = parse(data.toString())
          if (message?.id === 1) {
            if (typeof message.result === "string") {
              live = true
              onLive()
            } else socket.terminate() // refused: try again later
            return
          }
          const number = message?.method === "eth_subscription" ? message.params?.result?.number : undefined
          if (typeof number === "string" && /^0x[0-9a-f]+$/i.test(number)) {
            const head = BigInt(number)
            for (const listener of [...listeners]) listener(head)
          }
        })
        socket.on("error", () => {}) // "close" follows
        socket.on("close", () => {
          clearInterval(ping)
          live = false
          resume(Effect.void)
        })
        return Effect.sync(() => {
          clearInterval(ping)
          live = false
          socket.removeAllListeners("close")
          socket.terminate()
        })
      })

    const where = redactUrl(url)
    const follow = Effect.gen(function* () {
      let failures = 0
      while (true) {
        let subscribed = false
        yield* connection(() => {
          subscribed = true
          Effect.runSyncWith(context)(recordNewHeads(where, true))
          if (failures > 0) log(Effect.logInfo(`chain: newHeads subscription at ${where} is back`))
          failures = 0
        })
        yield* recordNewHeads(where, false, subscribed)
        if (subscribed)
          yield* Effect.logWarning(
            `chain: newHeads socket at ${where} closed; reconnecting, heads polled over HTTP meanwhile`
          )
        else if (failures === 0)
          yield* Effect.logWarning(`chain: newHeads socket at ${where} does not connect; retrying with backoff`)
        // 0.1–0.2 s after a drop, doubling per failed attempt up to 5–10 s.
        yield* Effect.sleep(backoffMs(Math.min(failures++, 6) + 1, undefined, Math.random()))
      }
    })
    yield* Effect.forkScoped(follow)

    return {
      listen: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      live: () => live
    } satisfies HeadAnnouncements
  })

interface Message {
  readonly id?: unknown
  readonly result?: unknown
  readonly method?: unknown
  readonly params?: { readonly result?: { readonly number?: unknown } }
}

const parse = (text: string): Message | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null ? (value as Message) : undefined
  } catch {
    return undefined
  }
}
