/**
 * The routing core's entry point (contract in ./types.ts): `makeRouter(snapshot, config)` builds the pool graph once;
 * the router then answers quotes against the current state and absorbs indexer deltas. Pure and synchronous: the
 * same code runs in a Piscina worker, inline on the main thread and in tests.
 */
import { PoolGraph } from "./Graph.ts"
import { quote } from "./Quote.ts"

export { addGasCost } from "./Quote.ts"
import type { MakeRouter, PoolDelta, QuoteRequest, Router } from "./types.ts"

export type * from "./types.ts"

export const makeRouter: MakeRouter = (snapshot, config): Router => {
  const graph = new PoolGraph(snapshot, config)
  return {
    blockNumber: () => graph.blockNumber,
    apply: (delta: PoolDelta) => graph.apply(delta),
    quote: (request: QuoteRequest) => quote(graph, config, request)
  }
}
