import { randomUUID } from "node:crypto"
import { BroadcastChannel } from "node:worker_threads"
import { assert, describe, it } from "@effect/vitest"
import type { GcPause } from "../../workers/GcPauses.ts"
import { postGcPauses } from "../../workers/GcPauses.ts"
import { decodePushedDelta, type WorkerReply } from "../../workers/protocol.ts"
import { warmUpPushPaths } from "../../workers/DeltaPush.ts"
import { makeEngine, warmUpRouting } from "../../workers/route-finder.ts"
import { warmUpPushedDelta, warmUpTasks } from "../../workers/WarmUpTasks.ts"

/**
 * A route-finder thread warms its delta and routing paths at start (workers/route-finder.ts `warmUpRouting`, tasks
 * of workers/WarmUpTasks.ts), so the first quote after the first block does not pay for compiling them
 * (docs/BENCHMARKS.md, "Quote engine at scale"). The warm-up only helps if its tasks take those paths: every task is
 * routed (`Found`), through a full load and a `Deltas` catch-up, on 1- to 3-hop routes, split and not, both trade
 * types; the pushed delta decodes.
 */
describe("route-finder warm-up", () => {
  it("routes every warm-up task, over a full load and caught-up deltas", () => {
    const engine = makeEngine()
    const tasks = warmUpTasks()
    const replies: Array<WorkerReply> = tasks.map((task) => engine(task))
    assert.deepStrictEqual(
      replies.map((r) => r._tag),
      tasks.map(() => "Found")
    )
    assert.deepStrictEqual(
      tasks.map((t) => t.sync?._tag ?? null),
      ["Full", null, "Deltas", null, null]
    )
    const quotes = replies.flatMap((r) => (r._tag === "Found" ? [r.quote] : []))
    assert.deepStrictEqual([...new Set(quotes.map((q) => q.type))].sort(), ["exactIn", "exactOut"])
    const hops = new Set(quotes.flatMap((q) => q.routes.map((route) => route.hops.length)))
    assert.isTrue(hops.has(1) && hops.has(2) && hops.has(3), `hop counts ${[...hops].join(", ")}`)
    assert.isTrue(
      quotes.some((q) => q.routes.length > 1),
      "a split quote"
    )
    // The caught-up deltas were applied: the quotes after them are at their block.
    assert.deepStrictEqual(
      quotes.map((q) => q.blockNumber),
      [1n, 1n, 3n, 3n, 3n]
    )
  })

  it("answers Found for every task of every round, and its pushed delta decodes", () => {
    assert.deepStrictEqual(new Set(warmUpRouting(3)), new Set(["Found"]))
    assert.strictEqual(warmUpRouting(3).length, 3 * warmUpTasks().length)
    assert.strictEqual(decodePushedDelta(warmUpPushedDelta()).version, 3)
  })

  it("takes a push drained once and by the message event as many times as asked", async () => {
    const pushed = warmUpPushedDelta()
    const received: Array<unknown> = []
    const all = new Promise<void>((resolve) =>
      warmUpPushPaths(pushed, 3, (message) => {
        received.push(message)
        if (received.length === 4) resolve()
      })
    )
    // The drained one is taken at once, before the thread's next turn.
    assert.strictEqual(received.length, 1)
    await all
    assert.deepStrictEqual(
      received.map((m) => decodePushedDelta(m)),
      [pushed, pushed, pushed, pushed]
    )
  })

  it("posts this thread's GC pauses on the channel it is given", async () => {
    const name = `gc-pauses-${randomUUID()}`
    const listener = new BroadcastChannel(name)
    const stop = postGcPauses(name)
    try {
      const first = new Promise<GcPause>((resolve) => {
        listener.onmessage = (event) => resolve((event as MessageEvent).data as GcPause)
      })
      // Garbage until a collection runs and is posted (each turn yields so the observer and the channel deliver).
      let pause: GcPause | undefined
      void first.then((p) => (pause = p))
      let kept = 0
      while (pause === undefined) {
        for (let i = 0; i < 10_000; i++) kept += new Array(64).fill(i).length
        await new Promise((resolve) => setImmediate(resolve))
      }
      assert.isAbove(kept, 0)
      assert.isAtLeast(pause.ms, 0)
      assert.include(["minor", "major", "incremental", "weak-callbacks", "other"], pause.kind)
      assert.approximately(pause.startedAt, Date.now(), 60_000)
    } finally {
      stop()
      listener.close()
    }
  })

  it("posts nothing and needs no stopping without a channel name", () => {
    postGcPauses(undefined)()
    postGcPauses("")()
  })
})
