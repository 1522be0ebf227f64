/**
 * The worker side of pushed deltas (src/exchange-api/quotes/RouteFinder.ts `apply`): the main thread posts each delta,
 * with the version it brings the state to, on a BroadcastChannel as soon as it is applied there, so a block's pools
 * reach every thread before the quotes that follow it, without the `Stale` round trip (workers/protocol.ts). A
 * thread listens on the channel its tasks name (`deltaChannel`), from its first task on.
 *
 * Pushed deltas are taken two ways: by the channel's message event while the thread's event loop runs, and, at the
 * start of each task, by draining the channel synchronously (`receiveMessageOnPort`, which accepts a BroadcastChannel):
 * a message is in the channel's queue once `postMessage` returns, so a task posted after a delta always finds it.
 * Piscina's idle threads sleep in `Atomics.wait` (its default `atomics: "sync"`), so the drain is what applies
 * most pushes; the event path serves a thread whose loop is free. A push that does not follow the thread's version
 * (it missed one, or holds no state yet) is dropped: the next task finds the thread behind and the `Stale` round
 * trip brings the missing deltas or the whole state, as before pushes.
 */
import { BroadcastChannel, type MessagePort, receiveMessageOnPort } from "node:worker_threads"

/** `apply` takes one pushed message (undecoded) and applies it when it follows the thread's version. */
export const followPushedDeltas = (apply: (message: unknown) => void) => {
  let name: string | undefined
  let channel: BroadcastChannel | undefined

  /** Subscribes to `next` (a task's `deltaChannel`) when it is not the current channel. */
  const listen = (next: string) => {
    if (next === name) return
    channel?.close()
    name = next
    channel = new BroadcastChannel(next)
    // The thread stays alive through Piscina's port; the channel must not keep it (or a test's thread) alive.
    channel.unref()
    channel.onmessage = (event) => apply((event as MessageEvent).data)
  }

  /** Applies every push waiting in the channel, oldest first. */
  const drain = () => {
    if (channel === undefined) return
    // Node takes a BroadcastChannel here since 15.12 (its documentation says so; @types/node does not).
    const port = channel as unknown as MessagePort
    for (let entry = receiveMessageOnPort(port); entry !== undefined; entry = receiveMessageOnPort(port))
      apply(entry.message)
  }

  return {
    /** Before each task: follow the channel it names, then apply what was pushed on it. */
    beforeTask: (deltaChannel: string | undefined) => {
      if (deltaChannel !== undefined) listen(deltaChannel)
      drain()
    },
    close: () => {
      channel?.close()
      channel = undefined
      name = undefined
    }
  }
}

/**
 * Takes `message` through both ways a push arrives, on a channel of its own: drained once now, and by the message
 * event `events` times on the thread's next turns (then the channel closes). A thread's first push otherwise paid
 * for setting these paths up: ~10 ms between the post and its handler at 100,000 pools, against 0.5 ms for the
 * next ones (docs/BENCHMARKS.md, "Quote engine at scale"). `received` is the thread's decoder, not its `apply`.
 */
export const warmUpPushPaths = (message: unknown, events: number, received: (message: unknown) => void) => {
  const name = `fire-quote-deltas-warm-up-${Math.random().toString(36).slice(2)}`
  const receiver = new BroadcastChannel(name)
  const sender = new BroadcastChannel(name)
  receiver.unref()
  sender.unref()
  sender.postMessage(message)
  const drained = receiveMessageOnPort(receiver as unknown as MessagePort)
  if (drained !== undefined) received(drained.message)
  let left = events
  receiver.onmessage = (event) => {
    received((event as MessageEvent).data)
    if (--left > 0) return
    receiver.close()
    sender.close()
  }
  for (let i = 0; i < events; i++) sender.postMessage(message)
  if (events <= 0) {
    receiver.close()
    sender.close()
  }
}
