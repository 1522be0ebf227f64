import type { RpcFaults, RpcProxy } from "../../support/RpcProxy.ts"
import { rangeErrorVectors } from "../rpc-error-vectors.ts"
import type { Random } from "./Random.ts"

/**
 * The faults of the chaos test (test/indexer/ChaosEquality.test.ts), each as the proxy's switches
 * (test/support/RpcProxy.ts) drawn for one phase: what hosted providers do (issue 25). Every provider's range text is
 * its own fault; the sizes in a text are the ones the proxy enforces (a hint that names another size would be
 * followed and refused again). A WebSocket drop is a fault too: the newHeads socket closes and cannot reconnect for
 * a while (the indexer polls over HTTP meanwhile).
 */
export interface Fault {
  readonly name: string
  /** The proxy's switches for this phase. */
  readonly switches: (random: Random, finalityDepth: number) => RpcFaults
  /** Drop the WebSockets for this phase (at most `phaseMs`, at least 0.5 s, as the 0.5–30 s drops). */
  readonly dropsWebSockets?: boolean
}

const rangeFault = (v: (typeof rangeErrorVectors)[number]): Fault => ({
  name: `range refusal: ${v.provider}`,
  switches: (random) => {
    const maxBlocks = 2 + random.int(5)
    return {
      range: {
        maxBlocks,
        code: v.code,
        message: v.message
          .replace(/\b10,?000\b|\b(500|10|2K) block/g, (m) => m.replace(/[\d,]+K?/, String(maxBlocks)))
          .replace(/should work: \[0x[0-9a-f]+, 0x[0-9a-f]+\]/i, `should work: [0x1, 0x${maxBlocks.toString(16)}]`)
          .replace(/range 1-2/, `range 1-${maxBlocks}`),
        httpStatus: v.httpStatus
      }
    }
  }
})

/** Texts of providers that cap a response's logs rather than its blocks. */
const resultCapTexts = rangeErrorVectors.filter((v) =>
  ["Infura (result count)", "Alchemy (response size)", "LlamaRPC"].includes(v.provider)
)

export const faults: ReadonlyArray<Fault> = [
  { name: "latency 10–100 ms", switches: () => ({ latencyMs: 10, latencyJitterMs: 90 }) },
  ...rangeErrorVectors.map(rangeFault),
  {
    name: "oversized responses (result cap)",
    switches: (random) => {
      const v = random.pick(resultCapTexts)
      // Per filter, a block's logs stay within it (a crowded block holds 3–5 Swaps of the stablecoin pool, a launch's
      // block about 4 of the launchpad's): no single block is refused; two crowded blocks in one range mostly are
      // (chaos/ChainActivity.ts).
      return { logCap: { maxLogs: 6, code: v.code, message: v.message, httpStatus: v.httpStatus } }
    }
  },
  {
    name: "HTTP 429 with Retry-After",
    switches: (random) => ({ rateLimit: { every: 3 + random.int(5), retryAfterSeconds: 1 } })
  },
  { name: "HTTP 429 without Retry-After", switches: (random) => ({ rateLimit: { every: 3 + random.int(5) } }) },
  {
    name: "a plan's requests-per-second limit (HTTP 429 past it)",
    switches: (random) => ({ requestsPerSecond: 10 + random.int(20) })
  },
  { name: "timeouts", switches: (random) => ({ hang: { every: 5 + random.int(10) } }) },
  {
    name: "a lagging node (1–20 blocks) behind a load balancer",
    switches: (random) => ({ lag: { blocks: 1 + random.int(20) } })
  },
  {
    name: "a lagging node answering empty logs at the head",
    switches: (random, finalityDepth) => ({ lag: { blocks: 1 + random.int(finalityDepth), emptyLogs: true } })
  },
  { name: "WebSocket drop", switches: () => ({}), dropsWebSockets: true }
]

/** Faults that only bite an eth_getLogs over several blocks, which the indexer asks for when it is behind. */
export const wantsRanges = (phase: Phase) =>
  phase.faults.some((f) => f.name.startsWith("range") || f.name.startsWith("oversized"))

/** Switches every fault off. */
export const clearFaults = (proxy: RpcProxy) => {
  for (const key of Object.keys(proxy.faults) as Array<keyof RpcFaults>) delete proxy.faults[key]
  proxy.restoreWebSockets()
}

/** One phase: the faults switched on together and for how long. */
export interface Phase {
  readonly faults: ReadonlyArray<Fault>
  readonly ms: number
}

/**
 * Every fault alone in turn over the first half of `totalMs`, then random phases of one to three faults at once
 * (0.5–8 s each) over the second half.
 */
export const schedule = (random: Random, totalMs: number): ReadonlyArray<Phase> => {
  const inTurn = totalMs / 2
  const phases: Array<Phase> = faults.map((f) => ({ faults: [f], ms: Math.max(1_000, inTurn / faults.length) }))
  let left = totalMs - phases.reduce((a, p) => a + p.ms, 0)
  while (left > 500) {
    const n = 1 + random.int(3)
    const chosen = new Set<Fault>()
    while (chosen.size < n) chosen.add(random.pick(faults))
    const ms = Math.min(left, 500 + random.int(7_500))
    phases.push({ faults: [...chosen], ms })
    left -= ms
  }
  return phases
}

/** Applies a phase's faults to the proxy (every other one off); the WebSocket drop, if any, lasts the phase. */
export const applyPhase = (proxy: RpcProxy, phase: Phase, random: Random, finalityDepth: number) => {
  clearFaults(proxy)
  for (const f of phase.faults) Object.assign(proxy.faults, f.switches(random, finalityDepth))
  if (phase.faults.some((f) => f.dropsWebSockets === true)) void proxy.dropWebSockets(Math.max(500, phase.ms))
}
