import { Effect, type Scope } from "effect"
import type { HeadAnnouncements } from "../../platform/Chain.ts"

/**
 * How the indexer waits at the head. With new heads announced over a WebSocket (RPC_WS_URL, or RPC_URL's ws(s) URL:
 * src/platform/Chain.ts `HeadAnnouncements`) it wakes as soon as a block is announced; the poll interval stays, so
 * a lost notification, or a socket that is down and reconnecting, costs at most one interval: heads are then polled
 * over HTTP. Without announcements it simply sleeps the poll interval.
 */
export interface NewHeads {
  /** True when new heads come from a subscription. */
  readonly subscribed: boolean
  /** Returns when a head above `seen` is announced, or after `fallbackMs`, whichever comes first. */
  readonly await: (seen: bigint, fallbackMs: number) => Effect.Effect<void>
}

export const makeNewHeads = (heads: HeadAnnouncements | undefined): Effect.Effect<NewHeads, never, Scope.Scope> =>
  Effect.gen(function* () {
    if (heads === undefined) {
      return { subscribed: false, await: (_seen, fallbackMs) => Effect.sleep(fallbackMs) }
    }
    let latest = -1n
    let waiters: Array<() => void> = []
    yield* Effect.acquireRelease(
      Effect.sync(() =>
        heads.listen((n) => {
          if (n > latest) latest = n
          const wake = waiters
          waiters = []
          for (const w of wake) w()
        })
      ),
      (stop) => Effect.sync(stop)
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
