/**
 * CLI of the AlphaRouter baseline, run by scripts/bench-quotes.ts in a child process (this package has its own
 * install): `node src/main.ts input.json output.json`. Input: `RunInput` (snapshot.ts); output: one `ResultJson` per
 * request, in order. The requests run one at a time, after `warmup` untimed ones.
 */
import * as NodeFs from "node:fs"
import { makeAlphaBaseline } from "./router.ts"
import type { ResultJson, RunInput } from "./snapshot.ts"

const [inputPath, outputPath] = process.argv.slice(2)
if (inputPath === undefined || outputPath === undefined)
  throw new Error("usage: node src/main.ts input.json output.json")
const input = JSON.parse(NodeFs.readFileSync(inputPath, "utf8")) as RunInput
const built = performance.now()
const baseline = makeAlphaBaseline(input.snapshot, input.roles, BigInt(input.gasPriceWei))
const setupMs = performance.now() - built
for (let i = 0; i < (input.warmup ?? 0) && input.requests.length > 0; i++)
  await baseline.quote(input.requests[i % input.requests.length]!)
const results: Array<ResultJson> = []
for (const r of input.requests) results.push(await baseline.quote(r))
NodeFs.writeFileSync(outputPath, JSON.stringify({ setupMs, pools: baseline.pools, skipped: baseline.skipped, results }))
