import { Effect, Fiber } from "effect"
import type { RangeLogs } from "../Batch.ts"
import type { BlockHeader } from "../fetch/ChainReader.ts"
import type { RpcError } from "../fetch/RpcError.ts"
import type { WriteError } from "../store/Store.ts"
import type { AheadRange } from "./Decision.ts"

/**
 * The next range's logs and its two headers (first and last), fetched while this range is projected and committed
 * (the node answers on another core; a remote node's round trips are hidden), only where blocks are final (see
 * `nextAhead`). Dropped (interrupted) by anything that does not go on with exactly that range.
 */
export const makeFetchAhead = Effect.sync(() => {
  let ahead: {
    readonly range: AheadRange
    readonly fiber: Fiber.Fiber<RangeLogs, RpcError>
    readonly headers: Fiber.Fiber<ReadonlyArray<BlockHeader>, RpcError>
  } | null = null
  const take = () => {
    const a = ahead
    ahead = null
    return a
  }
  return {
    range: (): AheadRange | null => ahead?.range ?? null,
    // Started at once (not on the scheduler's next turn): its requests go out before the next step's header reads.
    start: <R, R2>(
      range: AheadRange,
      fetch: Effect.Effect<RangeLogs, RpcError, R>,
      headers: Effect.Effect<ReadonlyArray<BlockHeader>, RpcError, R2>
    ) =>
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(fetch, { startImmediately: true })
        ahead = { range, fiber, headers: yield* Effect.forkChild(headers, { startImmediately: true }) }
      }),
    /** The headers read with the range fetched ahead (it stays fetched: `join` takes its logs). */
    headers: Effect.suspend(() => (ahead === null ? Effect.die("no range fetched ahead") : Fiber.join(ahead.headers))),
    /** The logs fetched ahead (the plan said they are for the next batch). */
    join: Effect.suspend(() => {
      const a = take()
      return a === null ? Effect.die("no range fetched ahead") : Fiber.join(a.fiber)
    }),
    drop: Effect.suspend(() => {
      const a = take()
      return a === null ? Effect.void : Effect.andThen(Fiber.interrupt(a.fiber), Fiber.interrupt(a.headers))
    })
  }
})

/**
 * The commit of the last built batch, which runs while the next batch is fetched, decoded and projected (the
 * projection only needs the in-memory state, which already includes the batch in flight). Settled (joined) before the
 * next commit, before any rollback and at the head; if it failed, the loop discards the next batch and reloads.
 */
export const makePendingCommit = Effect.sync(() => {
  let pending: { readonly fiber: Fiber.Fiber<void, WriteError>; readonly to: BlockHeader } | null = null
  const take = () => {
    const p = pending
    pending = null
    return p
  }
  return {
    /** The block the commit in flight ends on: the checkpoint once it lands. */
    tip: (): BlockHeader | null => pending?.to ?? null,
    start: <R>(commit: Effect.Effect<void, WriteError, R>, to: BlockHeader) =>
      Effect.map(Effect.forkChild(commit), (fiber) => {
        pending = { fiber, to }
      }),
    settle: Effect.suspend(() => {
      const p = take()
      return p === null ? Effect.void : Fiber.join(p.fiber)
    }),
    /** Waits for the commit in flight and ignores how it ended (the loop is failing anyway). */
    settleQuietly: Effect.suspend(() => {
      const p = take()
      return p === null ? Effect.void : Effect.asVoid(Fiber.await(p.fiber))
    })
  }
})
