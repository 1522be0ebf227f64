import * as v8 from "node:v8"

/**
 * How the app's V8 heap is sized (issue 23 H2: RSS across 10,000 `/mcp` `initialize` calls within 50 MB of before;
 * docs/BENCHMARKS.md, "Abuse"). A flood allocated ~190 KB per call, almost all garbage by the time it was answered,
 * yet RSS read right after it was up 160–260 MB, and back below the start after one full GC. Two V8 behaviours held
 * that garbage:
 *
 * - **The young generation grows to 128 MB** (two semi-spaces of 64 MB) while a process allocates fast, and stays
 *   committed until the memory reducer shrinks it when idle. A request-serving process keeps nothing in it for long,
 *   so 2 × 8 MB holds a request's life with room to spare. V8 sizes it when the isolate is made: it is a start flag,
 *   START_NODE_FLAGS, which `npm start` (package.json) and the systemd unit (scripts/systemd/fire-api@.service)
 *   pass, and so do the benches and the soak.
 * - **Pretenuring**: V8 moves allocation sites whose objects survived scavenges to allocate straight in old space.
 *   Under a flood, per-request objects went there as garbage that waited for a full GC: old space +44 MB over 3,000
 *   `initialize` calls with it, +13 MB without (young generation capped in both). It can be switched off at run
 *   time, which `applyHeapTuning` does first thing in src/main.ts, whatever started the process.
 *
 * Not used, measured: `--max-semi-space-size=4 --heap-growing-percent=10` read +23 to +39 MB after the flood instead
 * of +57 to +72, but cost every other route its throughput (`BENCH_SETS=none npm run bench:quotes`, quiet, one run
 * each: 3,487 quotes/s with p99 71 ms against 6,592 and p99 24 ms with the flag below; `--heap-growing-percent=10`
 * alone 4,563, p99 51 ms). The flood is bounded instead by MCP_NEW_SESSIONS_PER_SECOND (src/mcp/McpNewSessionRate.ts).
 */
export const START_NODE_FLAGS: ReadonlyArray<string> = ["--max-semi-space-size=8"]

/** The young generation START_NODE_FLAGS allows: two semi-spaces. */
export const MAX_NEW_SPACE_BYTES = 2 * 8 * 1024 * 1024

/** A process started with `--allocation-site-pretenuring` keeps it: the flag given wins (a baseline of bench:mcp-heap). */
export const applyHeapTuning = () => {
  if (!process.execArgv.includes("--allocation-site-pretenuring"))
    v8.setFlagsFromString("--no-allocation-site-pretenuring")
}
