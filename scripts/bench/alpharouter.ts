/**
 * The AlphaRouter side of `npm run bench:quotes`: bench/alpharouter has its own package.json and lockfile (the SOR
 * and its 100+ MB of dependencies stay out of the main install); it is installed there with `npm ci` on first use and
 * run as a child process under the project's Node 24, fed a JSON file (snapshot, roles, requests) and answering one
 * result per request (bench/alpharouter/src/snapshot.ts has the shapes).
 */
import * as NodeChild from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import type { Address, PoolSnapshot, QuoteRequest } from "../../workers/routing/types.ts"

const root = NodePath.resolve(import.meta.dirname, "../..")
export const alphaDir = NodePath.join(root, "bench/alpharouter")
const marker = NodePath.join(alphaDir, "node_modules/@uniswap/smart-order-router/package.json")
const node24 = NodePath.join(root, "node_modules/node/bin/node")

export const alphaInstalled = () => NodeFs.existsSync(marker)

export const ensureAlphaInstalled = (log: (line: string) => void) => {
  if (alphaInstalled()) return
  log("installing @uniswap/smart-order-router in bench/alpharouter (npm ci)…")
  const npm = process.platform === "win32" ? "npm.cmd" : "npm"
  const result = NodeChild.spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: alphaDir, stdio: "inherit" })
  if (result.status !== 0 || !alphaInstalled()) throw new Error(`npm ci in ${alphaDir} failed (${result.status})`)
}

/** One route of a split. exactIn: `amount` in, `quote` out; exactOut: `amount` out, `quote` in. Our addresses. */
export interface AlphaRoute {
  readonly percent: number
  readonly path: ReadonlyArray<Address>
  readonly pools: ReadonlyArray<Address>
  readonly amount: string
  readonly quote: string
}

export interface AlphaTiming {
  /** Wall time of `AlphaRouter.route`, of which `quoterMs` in the in-memory quoter (v3-sdk swap simulation). */
  readonly latencyMs: number
  readonly quoterMs: number
  readonly quoterCalls: number
  readonly quotesSimulated: number
}

export type AlphaResult = AlphaTiming &
  (
    | {
        readonly ok: true
        /** exactIn: output; exactOut: input (base units). */
        readonly quote: bigint
        readonly quoteGasAdjusted: bigint
        readonly gasUseEstimate: bigint
        readonly routeString: string
        readonly routes: ReadonlyArray<AlphaRoute>
      }
    | { readonly ok: false; readonly error: string }
  )

export interface AlphaRun {
  readonly setupMs: number
  readonly pools: number
  readonly skipped: number
  readonly results: ReadonlyArray<AlphaResult>
}

const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v))

/** Runs the requests through AlphaRouter in a child process, one at a time after `warmup` untimed ones. */
export const runAlphaRouter = (args: {
  readonly snapshot: PoolSnapshot
  readonly roles: { readonly wrappedNative: Address; readonly usdToken: Address }
  readonly requests: ReadonlyArray<QuoteRequest>
  readonly gasPriceWei: bigint
  readonly warmup: number
}): AlphaRun => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "bench-alpha-"))
  try {
    const input = NodePath.join(dir, "input.json")
    const output = NodePath.join(dir, "output.json")
    NodeFs.writeFileSync(
      input,
      json({
        snapshot: args.snapshot,
        roles: args.roles,
        requests: args.requests.map((r) => ({
          tokenIn: r.tokenIn,
          tokenOut: r.tokenOut,
          amount: r.amount,
          type: r.type
        })),
        gasPriceWei: args.gasPriceWei,
        warmup: args.warmup
      })
    )
    const run = NodeChild.spawnSync(node24, ["src/main.ts", input, output], {
      cwd: alphaDir,
      stdio: ["ignore", "inherit", "inherit"],
      maxBuffer: 1 << 26
    })
    if (run.status !== 0) throw new Error(`AlphaRouter baseline exited with ${run.status}`)
    const parsed = JSON.parse(NodeFs.readFileSync(output, "utf8")) as Omit<AlphaRun, "results"> & {
      results: Array<Record<string, unknown>>
    }
    return {
      ...parsed,
      results: parsed.results.map((r) =>
        r.ok === true
          ? ({
              ...r,
              quote: BigInt(r.quote as string),
              quoteGasAdjusted: BigInt(r.quoteGasAdjusted as string),
              gasUseEstimate: BigInt(r.gasUseEstimate as string)
            } as unknown as AlphaResult)
          : (r as unknown as AlphaResult)
      )
    }
  } finally {
    NodeFs.rmSync(dir, { recursive: true, force: true })
  }
}
