import { Effect, type Scope } from "effect"
import { type Hex, hexToBigInt, type PublicClient } from "viem"

interface WebSocketSubscriber {
  readonly subscribe: (args: {
    readonly params: readonly ["newHeads"]
    readonly onData: (data: { readonly result?: { readonly number?: Hex } }) => void
    readonly onError?: (error: unknown) => void
  }) => Promise<{ readonly unsubscribe: () => Promise<unknown> }>
}

/**
 * How the indexer waits at the head. Over a WebSocket transport (RPC URL ws:// or wss://) it subscribes to new heads
 * (`eth_subscribe("newHeads")`) and wakes as soon as a block is announced; the poll interval stays as the fallback in
 * case a notification is lost (a silently dropped subscription). Over HTTP it simply sleeps the poll interval.
 */
export interface NewHeads {
  /** True when new heads come from a subscription. */
  readonly subscribed: boolean
  /** Returns when a head above `seen` is announced, or after `fallbackMs`, whichever comes first. */
  readonly await: (seen: bigint, fallbackMs: number) => Effect.Effect<void>
}

export const makeNewHeads = (client: PublicClient): Effect.Effect<NewHeads, never, Scope.Scope> =>
  Effect.gen(function* () {
    if ((client.transport as { type?: string } | undefined)?.type !== "webSocket") {
      return { subscribed: false, await: (_seen, fallbackMs) => Effect.sleep(fallbackMs) }
    }
    let latest = -1n
    let waiters: Array<() => void> = []
    const onHead = (n: bigint) => {
      if (n > latest) latest = n
      const wake = waiters
      waiters = []
      for (const w of wake) w()
    }
    // viem's WebSocket transport subscription (what its watchBlockNumber uses without polling).
    const transport = client.transport as unknown as WebSocketSubscriber
    yield* Effect.acquireRelease(
      Effect.promise(() =>
        transport
          .subscribe({
            params: ["newHeads"],
            onData: (data) => {
              if (data.result?.number !== undefined) onHead(hexToBigInt(data.result.number))
            },
            // A broken subscription only costs latency: the poll interval still drives the loop.
            onError: () => {}
          })
          .then(
            (s) => s,
            () => undefined
          )
      ),
      (subscription) => Effect.promise(() => subscription?.unsubscribe().catch(() => undefined) ?? Promise.resolve())
    )
    const announced = (seen: bigint) =>
      Effect.callback<void>((resume) => {
        // A head announced between the last poll and this wait is not missed.
        if (latest > seen) return resume(Effect.void)
        const wake = () => resume(Effect.void)
        waiters.push(wake)
        return Effect.sync(() => {
          waiters = waiters.filter((w) => w !== wake)
        })
      })
    return {
      subscribed: true,
      await: (seen, fallbackMs) => Effect.race(announced(seen), Effect.sleep(fallbackMs))
    }
  })
