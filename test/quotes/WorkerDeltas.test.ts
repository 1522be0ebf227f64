import { randomUUID } from "node:crypto"
import { BroadcastChannel } from "node:worker_threads"
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { PoolStateLog } from "../../src/exchange-api/quotes/PoolStateLog.ts"
import { QuoteConfig } from "../../src/exchange-api/quotes/QuoteConfig.ts"
import { DELTA_LOG_SIZE, RouteFinder } from "../../src/exchange-api/quotes/RouteFinder.ts"
import { RouteFinderPool } from "../../src/exchange-api/quotes/RouteFinderPool.ts"
import type { WorkerReply, WorkerTask } from "../../workers/protocol.ts"
import { makeEngine } from "../../workers/route-finder.ts"
import { makeDeltaSource, randomQuoteRequests } from "../../workers/routing/testing/generateDeltas.ts"
import { generatedConfig, generateUniverse, prng } from "../../workers/routing/testing/generatePools.ts"
import type { Address, PoolState, QuoteRequest } from "../../workers/routing/types.ts"

/**
 * Workers follow the pool state by deltas (workers/protocol.ts, src/exchange-api/quotes/PoolStateLog.ts): a worker
 * that applied N deltas to its router in place quotes exactly like one built from a full snapshot of the same state,
 * on random generated universes (workers/routing/testing/generatePools.ts) changed block by block by swaps, new
 * positions, removed and added pools (workers/routing/testing/generateDeltas.ts).
 */
const config = generatedConfig()

/** A universe whose last `held` pools (and the tokens only they hold) arrive later, in deltas. */
const scenario = (seed: number, count: number, held: number) => {
  const { snapshot, usd } = generateUniverse(seed, count)
  const start = snapshot.pools.slice(0, count - held)
  const startTokens = new Set(start.flatMap((p) => [p.token0, p.token1]))
  const tokens = new Map(snapshot.tokens.map((t) => [t.address, t]))
  const next = makeDeltaSource({
    chainId: snapshot.chainId,
    pools: new Map(start.map((p) => [p.address, p])),
    pending: snapshot.pools.slice(count - held),
    tokens,
    rand: prng(seed * 7 + 1)
  })
  const request = randomQuoteRequests(snapshot.pools, tokens, usd, prng(seed * 7 + 2))
  return {
    start: { ...snapshot, pools: start, tokens: snapshot.tokens.filter((t) => startTokens.has(t.address)) },
    next,
    request
  }
}

/**
 * Runs a task the way RouteFinder does: once without a sync, once more with what a `Stale` reply asks for. With
 * `deltaChannel`, the worker follows the deltas pushed there (workers/DeltaPush.ts).
 */
const ask = (engine: (t: unknown) => WorkerReply, log: PoolStateLog, request: QuoteRequest, deltaChannel?: string) => {
  const task = { request, calldata: null, deltaChannel }
  const first = engine({ ...task, version: log.version(), sync: null } satisfies WorkerTask)
  if (first._tag !== "Stale") return { reply: first, sync: null }
  const sync = log.syncFrom(first.have)
  return { reply: engine({ ...task, version: log.version(), sync } satisfies WorkerTask), sync: sync._tag }
}

/** A fresh worker given the whole current state: the reference. */
const fresh = (log: PoolStateLog) => {
  const engine = makeEngine()
  return (request: QuoteRequest) => ask(engine, log, request).reply
}

describe("route-finder workers follow the pool state by deltas", () => {
  for (const seed of [3, 11, 29]) {
    it(`seed ${seed}: after each run of deltas a worker quotes exactly like one loaded from the full state`, () => {
      const { start, next, request } = scenario(seed, 400, 40)
      const log = new PoolStateLog(64)
      log.load(start, config)
      const worker = makeEngine()
      const syncs: Array<string | null> = []
      const rand = prng(seed)
      let compared = 0
      let found = 0
      for (let block = 2n; block <= 41n; block++) {
        log.apply(next(block, { swapped: 12, minted: 3, removed: 1, added: 1 }))
        // The worker is asked only now and then: it catches up several deltas at once.
        if (rand() < 0.5 && block !== 41n) continue
        const reference = fresh(log)
        for (let i = 0; i < 12; i++) {
          const r = request()
          const { reply, sync } = ask(worker, log, r)
          syncs.push(sync)
          assert.deepStrictEqual(reply, reference(r), `block ${block}, request ${i}`)
          compared++
          if (reply._tag === "Found") found++
        }
      }
      assert.strictEqual(syncs.filter((s) => s === "Full").length, 1, "one full load: the first task")
      assert.isAbove(syncs.filter((s) => s === "Deltas").length, 5)
      assert.isAbove(found, compared / 3, "most requests find a route (the comparison is not between failures)")
      assert.strictEqual(log.snapshot()!.pools.length, 400 - 40 + 40 - countRemoved(log))
    })
  }

  it("a worker further behind than the delta log reaches gets the full state, and quotes the same", () => {
    const { start, next, request } = scenario(5, 300, 10)
    const log = new PoolStateLog(4)
    log.load(start, config)
    const worker = makeEngine()
    assert.strictEqual(ask(worker, log, request()).sync, "Full")
    for (let block = 2n; block <= 4n; block++) log.apply(next(block, { swapped: 10, added: 1 }))
    assert.strictEqual(ask(worker, log, request()).sync, "Deltas", "3 deltas behind, the log holds 4")
    for (let block = 5n; block <= 10n; block++) log.apply(next(block, { swapped: 10, removed: 1, added: 1 }))
    const r = request()
    const { reply, sync } = ask(worker, log, r)
    assert.strictEqual(sync, "Full", "6 deltas behind, the log holds 4")
    assert.deepStrictEqual(reply, fresh(log)(r))
  })

  it("a pushed delta is applied before the next task; a worker that missed one catches up through Stale", () => {
    const { start, next, request } = scenario(7, 300, 10)
    const log = new PoolStateLog(64)
    log.load(start, config)
    const channel = `test-deltas-${randomUUID()}`
    const poster = new BroadcastChannel(channel)
    const worker = makeEngine()
    const quoteAndCompare = (label: string) => {
      const r = request()
      const { reply, sync } = ask(worker, log, r, channel)
      assert.deepStrictEqual(reply, fresh(log)(r), label)
      return sync
    }
    const block = (n: bigint, push: boolean) => {
      const delta = next(n, { swapped: 10, minted: 2, removed: 1, added: 1 })
      log.apply(delta)
      if (push) poster.postMessage({ version: log.version(), delta })
    }
    try {
      assert.strictEqual(quoteAndCompare("start"), "Full", "the first task loads the whole state")
      for (let n = 2n; n <= 4n; n++) block(n, true)
      assert.strictEqual(quoteAndCompare("three pushed blocks"), null, "pushed deltas need no sync")
      // Block 5 is never pushed (a thread busy elsewhere, a lost message): block 6's push does not follow the
      // worker's version and is dropped; the task finds the worker behind and brings both deltas.
      block(5n, false)
      block(6n, true)
      assert.strictEqual(quoteAndCompare("a missed push"), "Deltas")
      block(7n, true)
      assert.strictEqual(quoteAndCompare("pushes again after the catch-up"), null)
      // A reload is never pushed: the worker is sent the whole state, then follows pushes from it.
      log.load(log.snapshot()!, config)
      block(8n, true)
      assert.strictEqual(quoteAndCompare("after a reload"), "Full")
      block(9n, true)
      assert.strictEqual(quoteAndCompare("pushes after the reload"), null)
    } finally {
      poster.close()
    }
  })
})

/** Pools removed over the run (each delta lists them). */
const countRemoved = (log: PoolStateLog) => {
  const sync = log.syncFrom(1)
  return sync._tag === "Deltas" ? sync.deltas.reduce((n, d) => n + d.delta.removed.length, 0) : Number.NaN
}

/** The real Piscina pool, with the `_tag` of the sync of every task it ran recorded. */
class Syncs extends Context.Service<Syncs, Array<string>>()("test/quotes/WorkerDeltas/Syncs") {}
const RecordingPool = Layer.effectContext(
  Effect.gen(function* () {
    const pool = yield* RouteFinderPool
    const syncs: Array<string> = []
    const recording = new Proxy(pool, {
      get: (target, key) => {
        if (key === "run")
          return (task: WorkerTask, options?: object) => {
            if (task.sync !== null) syncs.push(task.sync._tag)
            return pool.run(task, options)
          }
        const value = Reflect.get(target, key, target)
        return typeof value === "function" ? value.bind(target) : value
      }
    })
    return Context.make(RouteFinderPool, recording).pipe(Context.add(Syncs, syncs))
  })
).pipe(Layer.provide(RouteFinderPool.layer))

/** RouteFinder over two real threads, recording the syncs it sends. */
const overThreads = (push: boolean) =>
  RouteFinder.layerNoDepsWith(DELTA_LOG_SIZE, { push }).pipe(
    Layer.provideMerge(RecordingPool),
    Layer.provideMerge(QuoteConfig.layerWith({ workers: 2, timeoutMs: 30_000 }))
  )

/** 30 blocks over threads loaded by a first round: each block's 4 quotes (concurrent) match a fresh full load. */
const thirtyBlocks = (seed: number) =>
  Effect.gen(function* () {
    const finder = yield* RouteFinder
    const syncs = yield* Syncs
    const { start, next, request } = scenario(seed, 600, 30)
    yield* finder.load(start, config)
    const log = new PoolStateLog(64)
    log.load(start, config)
    // The first round loads the whole state into the threads (each task answered Stale brings it).
    yield* Effect.forEach(Array.from({ length: 4 }, request), (r) => finder.quote(r), { concurrency: "unbounded" })
    const atStart = syncs.length
    assert.isAbove(atStart, 0)
    assert.deepStrictEqual(new Set(syncs), new Set(["Full"]))
    for (let block = 2n; block <= 31n; block++) {
      const delta = next(block, { swapped: 15, minted: 2, removed: 1, added: 1 })
      yield* finder.apply(delta)
      log.apply(delta)
      const requests = Array.from({ length: 4 }, request)
      // Concurrently: both threads take tasks.
      const got = yield* Effect.forEach(requests, (r) => finder.quote(r), { concurrency: "unbounded" })
      const reference = fresh(log)
      requests.forEach((r, i) => {
        const want = reference(r)
        const have = got[i]!
        assert.strictEqual(have._tag, want._tag, `block ${block}, request ${i}`)
        if (have._tag === "Found" && want._tag === "Found") assert.deepStrictEqual(have.quote, want.quote)
      })
    }
    assert.strictEqual(finder.current()!.pools.length, log.snapshot()!.pools.length)
    const addresses = (pools: ReadonlyArray<PoolState>) => pools.map((p) => p.address as Address).sort()
    assert.deepStrictEqual(addresses(finder.current()!.pools), addresses(log.snapshot()!.pools))
    return syncs.slice(atStart)
  })

layer(overThreads(true), { timeout: "180 seconds", excludeTestServices: true })(
  "route finder over worker threads, deltas pushed",
  (it) => {
    it.effect("each block's delta reaches the threads before the quotes that follow it: no sync after the loads", () =>
      Effect.gen(function* () {
        const after = yield* thirtyBlocks(19)
        // A thread that took no task of the first round holds no state and drops the pushes until its first task
        // brings the whole state: at most one block's 4 tasks. A delta is never sent with a task: each was pushed
        // before the quotes of its block were asked.
        assert.isAtMost(after.filter((s) => s === "Full").length, 4, `syncs after the first round: ${after.join(",")}`)
        assert.strictEqual(after.filter((s) => s === "Deltas").length, 0, `syncs after the first round: ${after}`)
      })
    )
  }
)

layer(overThreads(false), { timeout: "180 seconds", excludeTestServices: true })(
  "route finder over worker threads, deltas on demand",
  (it) => {
    it.effect("after the first load each block reaches the threads as deltas, and quotes match a full load", () =>
      Effect.gen(function* () {
        const after = yield* thirtyBlocks(17)
        // Then only deltas: 30 blocks, each reaching a thread as the deltas it missed. A thread is sent the whole
        // state only before its first quote: in the first round, or in a later block when the other thread took every
        // task until then (seen on a loaded machine): at most that block's 4 tasks. A whole load per block: 30+.
        assert.isAtMost(after.filter((s) => s === "Full").length, 4, `syncs after the first round: ${after.join(",")}`)
        assert.isAbove(after.filter((s) => s === "Deltas").length, 20, `syncs after the first round: ${after}`)
      })
    )
  }
)
