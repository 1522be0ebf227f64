import { Context, Effect, Fiber, Layer, Stream } from "effect"
import { type IndexerChange, IndexerEvents } from "../IndexerEvents.ts"

/** What a topic delivers for one committed change, read from the database after the commit (never from the change). */
export type TopicRead<A> = (change: IndexerChange) => Promise<ReadonlyArray<A>>

/** Events a slow subscriber may have waiting before the oldest are dropped. */
const MAX_BUFFERED = 1_000

interface Subscriber {
  readonly push: (value: unknown) => void
}

interface Upstream {
  readonly subscribers: Set<Subscriber>
  fiber: Fiber.Fiber<void> | undefined
  /** Set once the reader is subscribed to the change feed: changes committed from then on reach the topic. */
  live: boolean
}

/**
 * Multiplexes GraphQL subscriptions: one upstream reader per distinct topic key (e.g. `swaps:<pool>`) follows the
 * indexer's change feed, reads what each committed change means for the topic from Postgres once, and fans the rows
 * out to every subscriber of that key. The reader starts with the first subscriber and stops with the last.
 */
export class SubscriptionHub extends Context.Service<
  SubscriptionHub,
  {
    /** Subscribes to `key`; `read` is used only if this call starts the topic's reader. */
    readonly topic: <A>(key: string, read: TopicRead<A>) => AsyncIterableIterator<A>
    /** Topics with a live upstream reader (distinct keys, whatever the number of subscribers). */
    readonly upstreams: () => number
  }
>()("app/graphql/SubscriptionHub") {
  static readonly layer = Layer.effect(
    SubscriptionHub,
    Effect.gen(function* () {
      const events = yield* IndexerEvents
      const context = yield* Effect.context<never>()
      const topics = new Map<string, Upstream>()

      const start = (key: string, upstream: Upstream, read: TopicRead<unknown>) =>
        Effect.runForkWith(context)(
          Effect.scoped(
            Effect.gen(function* () {
              const changes = yield* events.subscribe
              upstream.live = true
              yield* Stream.runForEach(changes, (change) =>
                Effect.tryPromise(() => read(change)).pipe(
                  Effect.tap((rows) =>
                    Effect.sync(() => {
                      for (const row of rows) for (const s of upstream.subscribers) s.push(row)
                    })
                  ),
                  Effect.catch((error) => Effect.logWarning(`subscription ${key}: read failed`, error))
                )
              )
            })
          ).pipe(
            Effect.ensuring(
              Effect.sync(() => {
                upstream.live = false
              })
            )
          )
        )

      yield* Effect.addFinalizer(() =>
        Effect.forEach([...topics.values()], (u) => (u.fiber === undefined ? Effect.void : Fiber.interrupt(u.fiber)), {
          discard: true
        })
      )

      const topic = <A>(key: string, read: TopicRead<A>): AsyncIterableIterator<A> => {
        let upstream = topics.get(key)
        const buffer: Array<A> = []
        let waiting: ((result: IteratorResult<A>) => void) | undefined
        let done = false
        const subscriber: Subscriber = {
          push: (value) => {
            if (waiting !== undefined) {
              const w = waiting
              waiting = undefined
              w({ value: value as A, done: false })
            } else {
              buffer.push(value as A)
              if (buffer.length > MAX_BUFFERED) buffer.shift()
            }
          }
        }
        if (upstream === undefined) {
          upstream = { subscribers: new Set([subscriber]), fiber: undefined, live: false }
          topics.set(key, upstream)
          upstream.fiber = start(key, upstream, read as TopicRead<unknown>)
        } else {
          upstream.subscribers.add(subscriber)
        }
        const own = upstream
        const leave = () => {
          if (done) return
          done = true
          own.subscribers.delete(subscriber)
          if (own.subscribers.size === 0 && topics.get(key) === own) {
            topics.delete(key)
            if (own.fiber !== undefined) Effect.runFork(Fiber.interrupt(own.fiber))
          }
          if (waiting !== undefined) {
            const w = waiting
            waiting = undefined
            w({ value: undefined, done: true })
          }
        }
        const iterator: AsyncIterableIterator<A> = {
          next: () => {
            if (buffer.length > 0) return Promise.resolve({ value: buffer.shift()!, done: false })
            if (done) return Promise.resolve({ value: undefined, done: true })
            return new Promise((resolve) => {
              waiting = resolve
            })
          },
          return: () => {
            leave()
            return Promise.resolve({ value: undefined, done: true })
          },
          throw: (error) => {
            leave()
            return Promise.reject(error)
          },
          [Symbol.asyncIterator]: () => iterator
        }
        return iterator
      }

      return SubscriptionHub.of({
        topic,
        upstreams: () => [...topics.values()].filter((u) => u.live).length
      })
    })
  )
}
