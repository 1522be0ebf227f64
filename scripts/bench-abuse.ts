import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import type { Address } from "viem"
import type { Attack, Result, Target } from "./abuse/Attack.ts"
import { clientAttacks } from "./abuse/ClientAttacks.ts"
import { graphqlAttacks } from "./abuse/GraphqlAttacks.ts"
import { mcpAttacks } from "./abuse/McpAttacks.ts"
import { signInAttacks } from "./abuse/SignInAttacks.ts"
import { cpuSecondsOf, machineCpu, threadCpuSecondsOf } from "./abuse/ProcessCpu.ts"
import { type Figures, figuresOf, type Sample, startWellBehaved, type Window } from "./abuse/WellBehaved.ts"
import { PRODUCTION_STACK_ARGS, productionStack } from "./bench/productionStack.ts"
import { buildApp, spawnApp, stopApp } from "./bench/spawn.ts"

/**
 * `npm run bench:abuse`: the attacks of issue 23 against a running stack, with a well-behaved load measured beside
 * them. The stack is started as `npm start` starts it (the build; embedded PostgreSQL and devnet in a temporary
 * DATA_DIR) in production mode (`FIRE_ENV=production` with the settings it demands, partner keys closed:
 * `QUOTE_OPEN=false`) behind one trusted proxy (`TRUST_PROXY=true`), which the bench plays: each caller has its own
 * address in `X-Forwarded-For`. A worker thread sends the well-behaved load (token reads on the exchange and wallet
 * sign-ins, users of their own addresses); after a warm-up it runs alone for BENCH_QUIET_SECONDS, then the attacks
 * run one after the other. Prints, per attack, how it was answered, whether that is the refusal expected and its
 * effect (with the well-behaved p99 while it ran), then the p99 of both loads quiet and under attack and their ratio
 * (target ≤ 2×). Exits 1 when an attack that must be refused was not (or failed to run).
 *
 * A p99 of a few dozen samples is their maximum: the quiet window and the per-address (non-volumetric) attacks last
 * long enough for BENCH_MIN_SAMPLES of the slower load (sign-ins) each. A per-address attack is repeated, each run
 * from a fresh address, until it has run its share of that time; it counts as refused only if every run was.
 *
 * Env: BENCH_MIN_SAMPLES (300), BENCH_QUIET_SECONDS (enough for BENCH_MIN_SAMPLES, at least 20), BENCH_WARMUP_SECONDS
 * (5), BENCH_TOKEN_RATE token reads/s (20), BENCH_SIGNIN_RATE sign-ins/s (2), BENCH_MCP_INITIALIZE (10000),
 * BENCH_MCP_FLOODS (3), BENCH_ONLY (regex over "finding name": run only those attacks), BENCH_ATTACKER_NICE (19), BENCH_CPU_PROF_DIR (the app
 * writes a CPU profile of the run there as it stops: where an attack's cost goes).
 */
const minSamples = Number(process.env.BENCH_MIN_SAMPLES ?? 300)
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5)
const tokenRate = Number(process.env.BENCH_TOKEN_RATE ?? 20)
const signInRate = Number(process.env.BENCH_SIGNIN_RATE ?? 2)
/** Seconds for BENCH_MIN_SAMPLES of the slower load. */
const samplingSeconds = minSamples / Math.min(tokenRate, signInRate)
// 5 % more: the samples at the window's edges, sent before it closed and answered after, are not all counted.
const quietSeconds = Number(process.env.BENCH_QUIET_SECONDS ?? Math.max(20, Math.ceil(samplingSeconds * 1.05)))
const only = process.env.BENCH_ONLY === undefined ? undefined : new RegExp(process.env.BENCH_ONLY, "u")
/**
 * BENCH_ATTACKER_NICE (19; 0: off): the nice value of the bench's main thread, which sends the attacks, set once the
 * app and the well-behaved load's thread are started (so neither inherits it). A real attacker's client runs on its
 * own machine; here it shares the 2 cores with the app, PostgreSQL, the devnet and the well-behaved load, and took up
 * to 0.9 of a core (the 6.8-s attacks of 2026-11-28 07:29 UTC, the per-attack "attacking thread" figure), the cores
 * 54-86 % busy. Niced, it gets a core when they do not need it: the attack is still as fast as the app answers it.
 */
const attackerNice = Number(process.env.BENCH_ATTACKER_NICE ?? 19)
/** Where the app writes a V8 CPU profile of the whole run when it stops (node --cpu-prof), if set. */
const cpuProfileDir = process.env.BENCH_CPU_PROF_DIR

const attacks: ReadonlyArray<Attack> = [...graphqlAttacks, ...mcpAttacks, ...signInAttacks, ...clientAttacks].filter(
  (a) => only?.test(`${a.finding} ${a.name}`) ?? true
)
/** Each per-address attack's share of samplingSeconds: it is repeated until it has run this long. */
const perAddressSeconds = samplingSeconds / Math.max(1, attacks.filter((a) => a.volumetric !== true).length)

type Outcome = Result | { error: string }
/** The bench's main thread: the attacks' requests (the well-behaved load has its own thread). */
const attackerCpuSeconds = () => threadCpuSecondsOf(process.pid, process.pid) ?? 0
const busyShare = (before: ReturnType<typeof machineCpu>, after: ReturnType<typeof machineCpu>): number =>
  before === undefined || after === undefined ? Number.NaN : (after.busy - before.busy) / (after.total - before.total)
const excludedOf = (outcome: Outcome) => ("error" in outcome ? [] : (outcome.excluded ?? []))

/** Runs `attack` until `seconds` have passed (once at least); its first result, how many runs and how many refused. */
const runFor = async (attack: Attack, target: Target, seconds: number) => {
  const until = Date.now() + seconds * 1000
  const outcomes: Array<Outcome> = []
  do {
    outcomes.push(
      await attack.run(target).catch((error: unknown) => ({
        error: error instanceof Error ? error.message : String(error)
      }))
    )
  } while (Date.now() < until && !("error" in outcomes.at(-1)!))
  const failed = outcomes.find((o) => "error" in o)
  return {
    first: failed ?? outcomes[0]!,
    runs: outcomes.length,
    refusedRuns: outcomes.filter((o) => !("error" in o) && o.refused).length
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const load = () =>
  `load average ${NodeOs.loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`

const waitReady = async (exchange: string) => {
  for (let i = 0; i < 1200; i++) {
    if ((await fetch(`${exchange}/api/health/ready`).catch(() => undefined))?.status === 200) return
    await sleep(100)
  }
  throw new Error("the stack did not become ready within 120 s")
}

const p99 = (f: Figures) => (Number.isNaN(f.p99) ? "-" : `${f.p99.toFixed(1)} ms`)
const line = (f: Figures) =>
  `n ${f.n}, p50 ${Number.isNaN(f.p50) ? "-" : f.p50.toFixed(1)} ms, p99 ${p99(f)}, non-200 ${f.failures}`

const main = async () => {
  buildApp()
  const stack = await productionStack("abuse")
  const { dataDir, devnetPort, inspectPort } = stack
  console.log(`machine: ${NodeOs.cpus().length} cores, node ${process.version}; ${load()} (shared with other work)`)
  const app = await spawnApp(
    stack.env,
    PRODUCTION_STACK_ARGS,
    cpuProfileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", cpuProfileDir]
  )
  try {
    const target: Target = await (async () => {
      const urls = {
        client: app.urls.get("client")!,
        exchange: app.urls.get("exchange")!,
        indexer: app.urls.get("indexer")!
      }
      await waitReady(urls.exchange)
      const d = JSON.parse(NodeFs.readFileSync(NodePath.join(dataDir, "devnet", "deployments.json"), "utf8")) as {
        contracts: { weth9: Address }
        launches: ReadonlyArray<{ token: Address; canonical: boolean }>
      }
      return {
        ...urls,
        rpcUrl: `http://127.0.0.1:${devnetPort}`,
        chainId: 31337,
        pid: app.child.pid!,
        inspectPort,
        tokens: d.launches.filter((l) => l.canonical).map((l) => l.token),
        weth: d.contracts.weth9
      }
    })()
    console.log(
      `stack: client, exchange, indexer in one process, FIRE_ENV=production, TRUST_PROXY=true (1 hop); ready in ${(app.readyMs / 1000).toFixed(1)} s`
    )
    console.log(
      `well-behaved load: ${tokenRate} GET /api/v1/tokens/{id} per s and ${signInRate} wallet sign-ins per s (nonce + verify), ` +
        `${warmupSeconds} s warm-up, ${quietSeconds} s quiet, then ${attacks.length} attacks in turn, each per-address ` +
        `one repeated for ${perAddressSeconds.toFixed(1)} s (${minSamples} samples of each load under them); ` +
        `the attacks sent from a thread at nice ${attackerNice} (BENCH_ATTACKER_NICE)\n`
    )
    const wellBehaved = startWellBehaved({
      client: target.client,
      exchange: target.exchange,
      tokenIds: target.tokens.map((t) => `${t}-${target.chainId}`),
      chainId: target.chainId,
      tokensPerSecond: tokenRate,
      signInsPerSecond: signInRate,
      maxInFlight: 200
    })
    await sleep(warmupSeconds * 1000)
    // Linux: the thread whose id is the process's, this main thread only (the worker and the app keep theirs).
    if (attackerNice !== 0) NodeOs.setPriority(process.pid, attackerNice)
    const quiet = { from: Date.now(), to: 0 }
    const quietCpuStart = cpuSecondsOf(target.pid) ?? 0
    await sleep(quietSeconds * 1000)
    quiet.to = Date.now()
    const quietCpu = (cpuSecondsOf(target.pid) ?? 0) - quietCpuStart
    const runs: Array<{
      attack: Attack
      result: Outcome
      repeats: number
      refusedRuns: number
      from: number
      to: number
      cpu: number
      attackerCpu: number
      machineBusy: number
    }> = []
    for (const attack of attacks) {
      const from = Date.now()
      const cpu = cpuSecondsOf(target.pid) ?? 0
      const attackerCpu = attackerCpuSeconds()
      const machine = machineCpu()
      process.stderr.write(`[bench:abuse] ${attack.finding} ${attack.name}\n`)
      const {
        first,
        runs: repeats,
        refusedRuns
      } = await runFor(attack, target, attack.volumetric === true ? 0 : perAddressSeconds)
      runs.push({
        attack,
        result: first,
        repeats,
        refusedRuns,
        from,
        to: Date.now(),
        cpu: (cpuSecondsOf(target.pid) ?? 0) - cpu,
        attackerCpu: attackerCpuSeconds() - attackerCpu,
        machineBusy: busyShare(machine, machineCpu())
      })
    }
    const { samples, dropped } = await wellBehaved.stop()

    let missed = 0
    let refusedCount = 0
    for (const { attack, result, repeats, refusedRuns, from, to, cpu, attackerCpu, machineBusy } of runs) {
      const ok = !("error" in result) && refusedRuns === repeats
      if (ok) refusedCount++
      else if (attack.required) missed++
      const verdict = ok ? "refused" : attack.required ? "NOT REFUSED" : "not refused (not required yet)"
      console.log(`${attack.finding.padEnd(3)} ${attack.name}`)
      console.log(`    expected: ${attack.expected}`)
      if ("error" in result) console.log(`    the attack failed to run: ${result.error}`)
      else {
        const repeated = repeats === 1 ? "" : ` (the first of ${repeats} runs, ${refusedRuns} of them refused)`
        console.log(`    answered: ${result.answered}${repeated}\n    ${verdict}; effect: ${result.effect}`)
      }
      const window = [{ from, to }]
      const excluded = excludedOf(result)
      const left = (kind: Sample["kind"]) =>
        figuresOf(samples, kind, window).n - figuresOf(samples, kind, window, excluded).n
      console.log(
        `    ${((to - from) / 1000).toFixed(1)} s, app CPU ${cpu.toFixed(2)} s (the well-behaved load's included), ` +
          `the bench's attacking thread ${attackerCpu.toFixed(2)} s, the machine's ${NodeOs.cpus().length} cores ` +
          `${(100 * machineBusy).toFixed(0)} % busy; ` +
          `well-behaved p99 meanwhile: tokens ${p99(figuresOf(samples, "token", window, excluded))}, ` +
          `sign-in ${p99(figuresOf(samples, "signin", window, excluded))}` +
          (excluded.length === 0
            ? ""
            : `; not counted: ${left("token")} token reads and ${left("signin")} sign-ins in flight during the ` +
              `bench's ${excluded.length} forced full GCs (${excluded.reduce((t, e) => t + e.to - e.from, 0)} ms)`)
      )
    }
    const benchGcs = runs.flatMap((r) => excludedOf(r.result))
    const all: ReadonlyArray<Window> = runs
    const perAddress: ReadonlyArray<Window> = runs.filter((r) => r.attack.volumetric !== true)
    const quietWindow = [quiet]
    console.log(
      `\nquiet: ${quietSeconds} s, app CPU ${quietCpu.toFixed(2)} s (${((100 * quietCpu) / quietSeconds).toFixed(0)} % of a core)`
    )
    for (const kind of ["token", "signin"] as const) {
      const q = figuresOf(samples, kind, quietWindow)
      console.log(`${kind === "token" ? "GET /api/v1/tokens/{id}" : "wallet sign-in"}`)
      console.log(`    quiet:                               ${line(q)}`)
      for (const [label, windows] of [
        ["under every attack:                 ", all],
        ["under all but the volumetric ones:  ", perAddress]
      ] as const) {
        const a = figuresOf(samples, kind, windows, benchGcs)
        const ratio = a.p99 / q.p99
        console.log(
          `    ${label} ${line(a)}; p99 ratio ${ratio.toFixed(2)}× (target ≤ 2×: ${ratio <= 2 ? "met" : "NOT met"})`
        )
      }
    }
    console.log(`requests the load could not send (200 in flight): ${dropped}`)
    console.log(
      `\n${refusedCount} of ${runs.length} attacks refused` +
        (missed > 0 ? `; ${missed} that must be refused were NOT` : "; every one that must be refused was")
    )
    console.log(`${load()} at the end`)
    process.exitCode = missed > 0 ? 1 : 0
  } finally {
    await stopApp(app.child)
    stack.remove()
  }
}

await main()
