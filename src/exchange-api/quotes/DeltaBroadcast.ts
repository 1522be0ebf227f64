import { randomUUID } from "node:crypto"
import { BroadcastChannel } from "node:worker_threads"
import { Effect } from "effect"
import type { VersionedDelta } from "../../../workers/protocol.ts"

/** The main thread's end of the pushed deltas (workers/DeltaPush.ts): a channel of its own, closed with the scope. */
export interface DeltaBroadcast {
  /** The channel's name, carried by every task so that each thread follows it. */
  readonly channel: string
  /** Posts a delta to every thread that follows the channel (each takes it before its next task). */
  readonly post: (pushed: VersionedDelta) => void
}

/** One channel per RouteFinder: several in one process (tests, benches) must not hear each other's versions. */
export const makeDeltaBroadcast = Effect.acquireRelease(
  Effect.sync(() => {
    const channel = `fire-quote-deltas-${randomUUID()}`
    const port = new BroadcastChannel(channel)
    // Nothing is received on this end; it must not keep the process alive.
    port.unref()
    return { port, broadcast: { channel, post: (pushed: VersionedDelta) => port.postMessage(pushed) } }
  }),
  ({ port }) => Effect.sync(() => port.close())
).pipe(Effect.map(({ broadcast }): DeltaBroadcast => broadcast))
