import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { parseEther } from "viem"
import { inject } from "vitest"
import { readDeploymentsSync, writeDeploymentsSync } from "../../layers/Deployments.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { type ServiceProcess, startServiceProcess } from "../support/ServiceProcess.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { fetchJson } from "../support/TestServer.ts"

/**
 * The app on a chain where only the DEX is deployed: the devnet's own deployments file with the `launchpad` part
 * removed (and no seeded launches), served by one real process (client, exchange, indexer) over RPC_URL. The DEX
 * data layer and quotes work; every launch and claim route answers 503 LAUNCHPAD_NOT_DEPLOYED.
 */
const withoutLaunchpad = () => {
  const {
    launchpad: _launchpad,
    launches: _launches,
    pools: _pools,
    ...dex
  } = readDeploymentsSync(inject("devnetDeploymentsFile"))
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "no-launchpad-"))
  const file = NodePath.join(dir, "deployments.json")
  writeDeploymentsSync(file, { ...dex, launches: [] })
  return file
}

class AppProcess extends Context.Service<AppProcess, ServiceProcess>()("test/deployments/NoLaunchpad/AppProcess") {}

const App = Layer.effect(
  AppProcess,
  startServiceProcess(["client", "exchange", "indexer"], {
    DEPLOYMENTS_FILE: withoutLaunchpad(),
    INDEXER_POLL_MS: "100",
    // With RPC_URL the quote routes want a partner key by default; this test is about the chain, not the keys.
    QUOTE_OPEN: "true"
  })
).pipe(Layer.provideMerge(Layer.mergeAll(TestDatabase, AnvilChain.layer)))

/** Retries `request` until `done` holds (the indexer catching up), bounded; a timeout shows the last answer. */
const until = <A>(request: Effect.Effect<A>, done: (a: A) => boolean, what: string) => {
  let last: A | undefined
  return request.pipe(
    Effect.tap((a) => Effect.sync(() => (last = a))),
    Effect.repeat({ until: done, schedule: Schedule.spaced("200 millis") }),
    Effect.timeoutOrElse({
      duration: "90 seconds",
      orElse: () => Effect.die(new Error(`${what}: not within 90 s; last answer ${JSON.stringify(last)}`))
    })
  )
}

layer(App, { timeout: "180 seconds", excludeTestServices: true })("app without the launchpad", (it) => {
  it.effect("says so at start; launch and claim routes answer 503 LAUNCHPAD_NOT_DEPLOYED, before authentication", () =>
    Effect.gen(function* () {
      const app = yield* AppProcess
      assert.match(app.output(), /launchpad\s+not deployed/)
      const client = app.urls.client!
      const token = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
      const routes: ReadonlyArray<[string, string]> = [
        ["POST", "/v1/launch"],
        ["GET", "/v1/launch/pending"],
        ["POST", "/v1/launch/00000000-0000-0000-0000-000000000000/submit"],
        ["GET", `/v1/tokens/${token}/claim/typed-data`],
        ["POST", `/v1/tokens/${token}/claim`]
      ]
      for (const [method, path] of routes) {
        const res = yield* fetchJson(`${client}${path}`, {
          method,
          headers: { "content-type": "application/json" },
          ...(method === "POST" ? { body: "{}" } : {})
        })
        assert.strictEqual(res.status, 503, `${method} ${path}: ${JSON.stringify(res.body)}`)
        assert.strictEqual(res.body.code, "LAUNCHPAD_NOT_DEPLOYED")
        assert.match(res.body.message, /launchpad is not deployed on chain 31337/)
      }
      // The rest of the client API is there.
      assert.strictEqual((yield* fetchJson(`${client}/healthz`)).status, 200)
    })
  )

  it.effect(
    "the exchange indexes the base pool and quotes WETH → stablecoin; launch pools are not indexed",
    () =>
      Effect.gen(function* () {
        const app = yield* AppProcess
        const chain = yield* AnvilChain
        const exchange = app.urls.exchange!
        const c = chain.deployments.contracts
        // The indexer at the chain's head first (its status through the exchange), then one quote.
        const head = yield* Effect.promise(() => chain.blockNumber())
        yield* until(
          fetchJson(`${exchange}/api/v1/indexer/status`),
          (r) => r.body.lastIndexedBlock !== null && BigInt(r.body.lastIndexedBlock) >= head,
          "indexer at the head"
        )
        const quote = yield* fetchJson(
          `${exchange}/api/v1/quote?chainId=31337&tokenInAddress=${c.weth9}&tokenOutAddress=${c.stablecoin}` +
            `&amount=${parseEther("1")}&type=exactIn&recipient=${chain.accounts[0]!.address}`
        )
        assert.strictEqual(quote.status, 200, JSON.stringify(quote.body))
        assert.isTrue(BigInt(quote.body.amountOut) > 0n, JSON.stringify(quote.body))
        const pools = (yield* fetchJson(`${exchange}/api/v1/pools/list?limit=200`)).body
        const pairs = pools.items.map((p: any) =>
          [p.token0.address, p.token1.address].map((a: string) => a.toLowerCase())
        )
        const base = [c.weth9.toLowerCase(), c.stablecoin.toLowerCase()]
        assert.isAtLeast(pairs.length, 1)
        for (const pair of pairs) assert.sameMembers(pair, base, "only pools among the base tokens are indexed")
        // A seeded launch token (its pool exists on this chain) is not quotable: without FireLaunch it is unknown.
        const launch = chain.deployments.launches.find((l) => l.canonical)!
        const refused = yield* fetchJson(
          `${exchange}/api/v1/quote?chainId=31337&tokenInAddress=${c.weth9}&tokenOutAddress=${launch.token}` +
            `&amount=${parseEther("1")}&type=exactIn&recipient=${chain.accounts[0]!.address}`
        )
        assert.notStrictEqual(refused.status, 200, JSON.stringify(refused.body))
      }),
    { timeout: 120_000 }
  )
})
