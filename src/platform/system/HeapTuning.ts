import * as v8 from "node:v8"

/**
 * How the app's V8 heap is sized (issue 23 H2: RSS across 10,000 `/mcp` `initialize` calls within 50 MB of before;
 * docs/BENCHMARKS.md, "Abuse"). A flood allocated ~190 KB per call, almost all garbage by the time it was answered,
 * yet RSS read right after it was up 160–260 MB, and back below the start after one full GC. Two V8 behaviours held
 * that garbage:
 *
 * - **The young generation grows to 128 MB** (two semi-spaces of 64 MB) while a process allocates fast, and stays
 *   committed until the memory reducer shrinks it when idle. A request-serving process keeps nothing in it for long:
 *   2 × 4 MB holds the ~20 `initialize` calls (~190 KB each) between two scavenges, 8 in flight. V8 sizes it when the
 *   isolate is made: it is a start flag, START_NODE_FLAGS, which `npm start` (package.json) and the systemd unit
 *   (scripts/systemd/fire-api@.service) pass, and so do the benches and the soak.
 * - **Old space grows by V8's heap growing factor between full GCs** (~1.3× the live heap here): what a flood
 *   promotes (~15 KB per `initialize`, live across two scavenges: sessions, requests waiting on the rate limiter's
 *   store) piles up as garbage until the next mark-compact, and the pages it took stay committed after it, so RSS
 *   right after a flood depended on where in that cycle the flood ended (old space 75–119 MB committed against 64
 *   before, quiet runs of the same flood). `--heap-growing-percent=10` fixes the factor at 1.1 (V8's smallest): full
 *   GCs come about twice as often under a flood, each concurrent, and the garbage held between them is about half.
 * - **Pretenuring**: V8 moves allocation sites whose objects survived scavenges to allocate straight in old space.
 *   Under a flood, per-request objects went there as garbage that waited for a full GC: old space +44 MB over 3,000
 *   `initialize` calls with it, +13 MB without (young generation capped in both). It can be switched off at run
 *   time, which `applyHeapTuning` does first thing in src/main.ts, whatever started the process.
 */
export const START_NODE_FLAGS: ReadonlyArray<string> = ["--max-semi-space-size=4", "--heap-growing-percent=10"]

/** The young generation START_NODE_FLAGS allows: two semi-spaces. */
export const MAX_NEW_SPACE_BYTES = 2 * 4 * 1024 * 1024

/** A process started with `--allocation-site-pretenuring` keeps it: the flag given wins (a baseline of bench:mcp-heap). */
export const applyHeapTuning = () => {
  if (!process.execArgv.includes("--allocation-site-pretenuring"))
    v8.setFlagsFromString("--no-allocation-site-pretenuring")
}
