import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { type Client, createClient } from "graphql-ws"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { parseEther } from "viem"
import WebSocket from "ws"
import { FireLaunchAbi } from "../../contracts/generated/FireLaunch.ts"
import { Chain } from "../../src/platform/Chain.ts"
import { servicesLayer } from "../../layers/App.ts"
import { makePublicClient } from "../../layers/PublicClient.ts"
import { swapRouter02Abi } from "../../scripts/devnet/abis.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Listening } from "../../src/platform/http/Serve.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { baseUrl, fetchJson, testSettings } from "../support/TestServer.ts"

/**
 * A JSON-RPC proxy in front of this file's anvil for the indexer's client only. `hold()` waits for the requests in
 * flight to be answered, then queues every new one until `release()`: while held, the indexer cannot see the chain,
 * so a block mined and reverted in that window is one the indexer deterministically never commits.
 */
const makeGate = () => {
  let held = false
  let inFlight = 0
  const idle: Array<() => void> = []
  const queued: Array<() => void> = []
  let server: Server | undefined
  const settle = () => {
    if (inFlight === 0) for (const f of idle.splice(0)) f()
  }
  return {
    start: (target: string) =>
      new Promise<string>((resolve) => {
        server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (c: Buffer) => chunks.push(c))
          req.on("end", () => {
            const forward = () => {
              inFlight++
              fetch(target, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: Buffer.concat(chunks)
              })
                .then(async (r) => {
                  const body = await r.text()
                  res.writeHead(r.status, { "content-type": "application/json" }).end(body)
                })
                .catch(() => res.writeHead(502).end())
                .finally(() => {
                  inFlight--
                  settle()
                })
            }
            if (held) queued.push(forward)
            else forward()
          })
        })
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`))
      }),
    hold: () =>
      new Promise<void>((resolve) => {
        held = true
        idle.push(resolve)
        settle()
      }),
    release: () => {
      held = false
      for (const f of queued.splice(0)) f()
    },
    stop: () =>
      new Promise<void>((resolve) => {
        held = false
        for (const f of queued.splice(0)) f()
        server?.closeAllConnections()
        if (server === undefined) resolve()
        else server.close(() => resolve())
      })
  }
}
const gate = makeGate()

/** The app's `Chain` over the gated proxy (the indexer reads through it); the test drives anvil directly. */
const GatedChain = Layer.effect(
  Chain,
  Effect.gen(function* () {
    const anvil = yield* AnvilChain
    const url = yield* Effect.acquireRelease(
      Effect.promise(() => gate.start(anvil.rpcUrl)),
      () => Effect.promise(gate.stop)
    )
    return Chain.of({
      chainId: anvil.chainId,
      rpcUrl: url,
      publicClient: makePublicClient(anvil.chainId, url),
      deployments: anvil.deployments,
      mode: "devnet"
    })
  })
).pipe(Layer.provideMerge(AnvilChain.layer))

const TestLayer = servicesLayer(["indexer"]).pipe(
  Layer.provideMerge(Layer.mergeAll(AppConfig.layerWith(testSettings()), Listening.layer)),
  Layer.provideMerge(Layer.mergeAll(TestDatabase, GatedChain)),
  Layer.provideMerge(NodeServices.layer)
)

const gql = (query: string) =>
  Effect.flatMap(baseUrl("indexer"), (base) =>
    fetchJson(`${base}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query })
    })
  )

const meta = gql("{ _meta { ready subscriptionUpstreams } }").pipe(Effect.map((r) => r.body.data._meta))
const caughtUp = meta.pipe(
  Effect.repeat({ until: (m) => m.ready === true, schedule: Schedule.spaced("50 millis") }),
  Effect.timeout("60 seconds")
)
/** Waits (bounded) until the number of live upstream readers satisfies `ok`. */
const upstreams = (ok: (n: number) => boolean) =>
  meta.pipe(
    Effect.map((m) => m.subscriptionUpstreams as number),
    Effect.repeat({ until: ok, schedule: Schedule.spaced("20 millis") }),
    Effect.timeout("20 seconds")
  )

/** A graphql-ws client (the npm client over `ws`) on the indexer's `/v1/graphql`. */
const wsClient = Effect.acquireRelease(
  Effect.map(baseUrl("indexer"), (base) =>
    createClient({
      url: `${base.replace(/^http/, "ws")}/v1/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true
    })
  ),
  (client) => Effect.promise(async () => client.dispose())
)

interface Collected {
  readonly events: Array<any>
  readonly errors: Array<unknown>
  /** Resolves with the first event matching `match` (bounded). */
  readonly next: (match: (event: any) => boolean, timeoutMs?: number) => Promise<any>
  readonly dispose: () => void
}
const collect = (client: Client, query: string, variables?: Record<string, unknown>): Collected => {
  const events: Array<any> = []
  const errors: Array<unknown> = []
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const l of listeners) l()
  }
  const dispose = client.subscribe(
    { query, ...(variables ? { variables } : {}) },
    {
      next: (value) => {
        events.push(value)
        notify()
      },
      error: (error) => {
        errors.push(error)
        notify()
      },
      complete: () => {}
    }
  )
  const next = (match: (event: any) => boolean, timeoutMs = 30_000) =>
    new Promise<any>((resolve, reject) => {
      const check = () => {
        const found = events.find(match)
        if (found !== undefined) done(() => resolve(found))
        else if (errors.length > 0) done(() => reject(new Error(JSON.stringify(errors[0]))))
      }
      const timer = setTimeout(
        () => done(() => reject(new Error(`no matching event in ${timeoutMs} ms: ${JSON.stringify(events)}`))),
        timeoutMs
      )
      const done = (f: () => void) => {
        clearTimeout(timer)
        listeners.delete(check)
        f()
      }
      listeners.add(check)
      check()
    })
  return { events, errors, next, dispose }
}

const ignite = (name: string) =>
  Effect.flatMap(AnvilChain, (anvil) =>
    Effect.promise(() =>
      anvil.sender.write(anvil.accounts[7]!, anvil.deployments.launchpad!.fireLaunch, FireLaunchAbi, "ignite", [
        name,
        name.toUpperCase()
      ])
    )
  )

const LAUNCH = `subscription { launches { token pool blockNumber tokenInfo { symbol } } }`

layer(TestLayer, { timeout: "120 seconds", excludeTestServices: true })(
  "GraphQL subscriptions over graphql-ws",
  (it) => {
    it.effect("a graphql-ws client receives a launches event after an ignite (the Launch row, with its links)", () =>
      Effect.scoped(
        Effect.gen(function* () {
          yield* caughtUp
          const before = yield* upstreams(() => true)
          const client = yield* wsClient
          const sub = collect(client, LAUNCH)
          yield* upstreams((n) => n >= before + 1)
          yield* ignite("Comet")
          const event = yield* Effect.promise(() => sub.next((e) => e.data?.launches?.tokenInfo?.symbol === "COMET"))
          assert.match(event.data.launches.token, /^0x[0-9a-f]{40}$/)
          assert.match(event.data.launches.blockNumber, /^\d+$/)
          // The same row is what the query returns.
          const listed = yield* gql(`{ launches(where: { token: "${event.data.launches.token}" }) { items { pool } } }`)
          assert.strictEqual(listed.body.data.launches.items[0].pool, event.data.launches.pool)
          sub.dispose()
          yield* upstreams((n) => n === before)
        })
      )
    )

    it.effect("a launch in a reverted block is not delivered; the launch of the replacing block is", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          yield* caughtUp
          const client = yield* wsClient
          const sub = collect(client, LAUNCH)
          yield* upstreams((n) => n >= 1)
          // Deterministic: with the indexer's RPC held, "Ghost" is ignited in a new block that is reverted (snapshot /
          // revert) before the indexer can see it, and "Real" is ignited in a block at the same height (same FireLaunch
          // nonce, so even the token address is the same). The indexer only ever commits the chain with "Real"; a
          // subscription that delivered from anything but committed rows could not tell them apart by address, so the
          // test checks the symbol read through the committed token row.
          yield* Effect.promise(() => gate.hold())
          const ghostBlock = yield* Effect.promise(async () => {
            const id = await anvil.snapshot()
            const receipt = await anvil.sender.write(
              anvil.accounts[7]!,
              anvil.deployments.launchpad!.fireLaunch,
              FireLaunchAbi,
              "ignite",
              ["Ghost", "GHOST"]
            )
            await anvil.revert(id)
            return receipt.blockNumber
          }).pipe(Effect.ensuring(Effect.sync(() => gate.release())))
          yield* Effect.sync(() => gate.release())
          const real = yield* ignite("Real")
          assert.strictEqual(real.blockNumber, ghostBlock)
          const event = yield* Effect.promise(() =>
            sub.next((e) => e.data?.launches?.blockNumber === String(real.blockNumber))
          )
          assert.strictEqual(event.data.launches.tokenInfo.symbol, "REAL")
          assert.isFalse(
            sub.events.some((e) => e.data?.launches?.tokenInfo?.symbol === "GHOST"),
            JSON.stringify(sub.events)
          )
          sub.dispose()
        })
      )
    )

    it.effect("swaps(pool) delivers a swap; two identical subscriptions share one upstream reader", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          yield* caughtUp
          const launch = anvil.deployments.launches.find((l) => l.canonical && !l.graduated)!
          const pool = launch.pool.toLowerCase()
          const before = yield* upstreams(() => true)
          const a = collect(
            yield* wsClient,
            `subscription($pool: String!) { swaps(pool: $pool) { pool amount0 amount1 blockNumber logIndex } }`,
            { pool }
          )
          const b = collect(
            yield* wsClient,
            `subscription($pool: String!) { swaps(pool: $pool) { pool amount0 amount1 blockNumber logIndex } }`,
            { pool: launch.pool }
          )
          const updated = collect(
            yield* wsClient,
            `subscription($pool: String!) { poolUpdated(pool: $pool) { address sqrtPriceX96 swapCount } }`,
            { pool }
          )
          // Two distinct topics (swaps:<pool>, poolUpdated:<pool>) for three subscriptions.
          yield* upstreams((n) => n === before + 2)
          const receipt = yield* Effect.promise(() =>
            anvil.sender.write(
              anvil.accounts[8]!,
              anvil.deployments.contracts.swapRouter02,
              swapRouter02Abi,
              "exactInputSingle",
              [
                {
                  tokenIn: anvil.deployments.contracts.weth9,
                  tokenOut: launch.token,
                  fee: launch.fee,
                  recipient: anvil.accounts[8]!.address,
                  amountIn: parseEther("0.01"),
                  amountOutMinimum: 0n,
                  sqrtPriceLimitX96: 0n
                }
              ],
              parseEther("0.01")
            )
          )
          const inBlock = (e: any) => e.data?.swaps?.blockNumber === String(receipt.blockNumber)
          const [ea, eb] = yield* Effect.promise(() => Promise.all([a.next(inBlock), b.next(inBlock)]))
          assert.strictEqual(ea.data.swaps.pool, pool)
          assert.deepStrictEqual(ea, eb)
          assert.match(ea.data.swaps.amount0, /^-?\d+$/)
          const state = yield* Effect.promise(() => updated.next((e) => e.data?.poolUpdated?.address === pool))
          assert.match(state.data.poolUpdated.sqrtPriceX96, /^\d+$/)
          // Still one reader per topic; the last subscriber leaving stops it.
          assert.strictEqual((yield* meta).subscriptionUpstreams, before + 2)
          a.dispose()
          yield* upstreams((n) => n === before + 2)
          b.dispose()
          updated.dispose()
          yield* upstreams((n) => n === before)
        })
      )
    )

    it.effect("subscription documents are refused by the same depth limit as queries", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* wsClient
          const deep =
            "query { __schema { types { fields { type " +
            "{ ofType ".repeat(20) +
            "{ name }" +
            " }".repeat(20) +
            " } } } }"
          const sub = collect(client, deep)
          const refused = yield* Effect.promise(() => sub.next((e) => e.errors !== undefined, 10_000))
          assert.strictEqual(refused.errors[0].extensions.code, "QUERY_TOO_DEEP")
          assert.isUndefined(refused.data)
          const costly = collect(
            client,
            `subscription { swaps(pool: "0x0000000000000000000000000000000000000000") {
        poolInfo { token0Info { symbol } } } }`
          )
          // A subscription document within the limits is accepted (no error event arrives before the refusal below).
          const tooCostly = collect(
            client,
            `{ a: swaps(first: 1000) { items { poolInfo { token0Info { symbol } token1Info { symbol } } } }
        b: swaps(first: 1000) { items { poolInfo { token0Info { symbol } } } } c: launches(first: 1000) { items { tokenInfo { symbol } poolInfo { address } } }
        d: holders(first: 1000) { items { token } } e: mints(first: 1000) { items { pool } } f: burns(first: 1000) { items { pool } }
        g: transfers(first: 1000) { items { token } } h: ticks(first: 1000) { items { tick } } }`
          )
          const costError = yield* Effect.promise(() => tooCostly.next((e) => e.errors !== undefined, 10_000))
          assert.strictEqual(costError.errors[0].extensions.code, "QUERY_TOO_COSTLY")
          assert.deepStrictEqual(costly.events, [])
          assert.deepStrictEqual(costly.errors, [])
          costly.dispose()
          // A document past MAX_TOKENS is refused while it is parsed, as over HTTP.
          const aliases = Array.from({ length: 200 }, (_, i) => `s${i}: swaps(first: 1) { items { txHash } }`)
          const large = collect(client, `{ ${aliases.join(" ")} }`)
          const tooLarge = yield* Effect.promise(() => large.next((e) => e.errors !== undefined, 10_000))
          assert.strictEqual(tooLarge.errors[0].extensions.code, "QUERY_TOO_LARGE")
        })
      )
    )
  }
)
