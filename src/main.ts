// Deep imports of @effect/platform-node everywhere: its index also loads modules we never use (Redis...), ~0.35 s.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit, Logger, Runtime } from "effect"
import { AppLive } from "../layers/App.ts"
import { redactUrl } from "./platform/RedactUrl.ts"
import { checkProductionSettings } from "./platform/system/ProductionChecks.ts"
import { applyHeapTuning } from "./platform/system/HeapTuning.ts"
import { DataDirLock } from "../layers/DataDirLock.ts"
import { failureLine, reportFailure } from "../layers/StartupFailure.ts"
import { TelemetryLive } from "../layers/Telemetry.ts"
import { Chain } from "./platform/Chain.ts"
import { type ServiceName, ServiceNames } from "./platform/AppConfig.ts"
import { Listening } from "./platform/http/Serve.ts"

/** `--services client,exchange` (or `--services=...`); all four by default. */
const parseServices = (argv: ReadonlyArray<string>): ReadonlyArray<ServiceName> => {
  const index = argv.findIndex((a) => a === "--services" || a.startsWith("--services="))
  if (index === -1) return ServiceNames
  const value = argv[index]!.includes("=") ? argv[index]!.split("=")[1]! : (argv[index + 1] ?? "")
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
  const unknown = names.filter((n) => !(ServiceNames as ReadonlyArray<string>).includes(n))
  if (names.length === 0 || unknown.length > 0) {
    console.error(`--services takes a comma-separated subset of ${ServiceNames.join(",")}; got "${value}"`)
    process.exit(2)
  }
  return ServiceNames.filter((n) => names.includes(n))
}

const services = parseServices(process.argv.slice(2))

// Before any request: allocation sites must not be moved to old space (src/platform/system/HeapTuning.ts).
applyHeapTuning()

const program = Effect.gen(function* () {
  const listening = yield* Listening
  const chain = yield* Chain
  console.log(
    `chain     ${(chain.rpcUrls ?? [chain.rpcUrl]).map(redactUrl).join(", ")} (chain id ${chain.chainId}, ${chain.mode === "devnet" ? "embedded anvil devnet" : "RPC_URL"})`
  )
  for (const [name, address] of Object.entries({ ...chain.deployments.contracts, ...chain.deployments.launchpad }))
    if (typeof address === "string") console.log(`  ${name.padEnd(19)} ${address}`)
  if (chain.deployments.launchpad === undefined)
    console.log("  launchpad           not deployed (launch and claim routes answer 503 LAUNCHPAD_NOT_DEPLOYED)")
  for (const name of services) console.log(`${name.padEnd(9)} ${listening.get(name)}`)
  const metrics = listening.get("metrics")
  if (metrics !== undefined) console.log(`metrics   ${metrics}/metrics`)
  yield* (yield* DataDirLock).announce(services.map((name) => `${name} ${listening.get(name)}`))
  console.log(`ready: ${services.join(", ")} (Ctrl-C to stop)`)
  return yield* Effect.never
}).pipe(
  // One line per step of a stop: this one, then each service and child as its scope closes, then "stopped".
  Effect.onInterrupt(() => Effect.logInfo("stopping: draining the services"))
)

// Past 10 s the drain has failed: leave anyway, so an orchestrator never waits on us.
const forceExitAfterSignal = () => {
  const arm = () => setTimeout(() => process.exit(1), 10_000).unref()
  process.once("SIGINT", arm)
  process.once("SIGTERM", arm)
  // A closed terminal sends SIGHUP, which would end Node without finalizers and leave PostgreSQL and anvil (in
  // process groups of their own) running: stop as for SIGTERM.
  process.once("SIGHUP", () => process.kill(process.pid, "SIGTERM"))
}
forceExitAfterSignal()

// A failure is reported as one line that says what to change (layers/StartupFailure.ts), through the app's logger;
// when that logger itself cannot be built (an invalid LOG_LEVEL or LOG_FORMAT), through the default pretty one.
let reported = false
// Production mode refuses unsafe settings before the database, the chain or any port is touched.
Effect.andThen(checkProductionSettings(services), program.pipe(Effect.provide(AppLive(services)))).pipe(
  Effect.onInterrupt(() => Effect.logInfo("stopped")),
  reportFailure,
  Effect.tapCause(() => Effect.sync(() => (reported = true))),
  Effect.provide(TelemetryLive),
  Effect.tapCause((cause) =>
    reported || Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Effect.logError(failureLine(cause)).pipe(Effect.provide(Logger.layer([Logger.consolePretty()])))
  ),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    // A signal interrupts the program; once every finalizer has run, that is a clean, requested stop: exit 0.
    teardown: (exit, onExit) =>
      Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
  })
)
