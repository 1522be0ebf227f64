import { Context, Effect, Layer, PubSub, type Scope, Stream } from "effect"

/**
 * What one committed batch (or rollback) changed. Published only after the transaction committed, so a consumer
 * that reads the database on receipt sees the change. `reorg` carries the ancestor the tables were rolled back to.
 */
export interface IndexerChange {
  readonly kind: "batch" | "reorg"
  readonly chainId: number
  readonly fromBlock: bigint
  readonly toBlock: bigint
  readonly pools: ReadonlyArray<string>
  readonly tokens: ReadonlyArray<string>
  /** Tokens of canonical launches first indexed in this batch. */
  readonly launches: ReadonlyArray<string>
}

/** The in-process change feed (GraphQL subscriptions, the quote engine and search subscribe to it). */
export class IndexerEvents extends Context.Service<
  IndexerEvents,
  {
    readonly publish: (change: IndexerChange) => Effect.Effect<void>
    readonly subscribe: Effect.Effect<Stream.Stream<IndexerChange>, never, Scope.Scope>
  }
>()("app/indexer/IndexerEvents") {
  static readonly layer = Layer.effect(
    IndexerEvents,
    Effect.gen(function* () {
      // Sliding: a slow subscriber loses the oldest changes rather than holding the indexer back.
      const pubsub = yield* PubSub.sliding<IndexerChange>(1024)
      return IndexerEvents.of({
        publish: (change) => PubSub.publish(pubsub, change).pipe(Effect.asVoid),
        subscribe: Effect.map(PubSub.subscribe(pubsub), Stream.fromSubscription)
      })
    })
  )
}
