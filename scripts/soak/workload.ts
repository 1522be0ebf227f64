import { createClient } from "graphql-ws"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import type { Address } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import WebSocket from "ws"
import { FireLaunchAbi } from "../../contracts/generated/FireLaunch.ts"
import { swapRouter02Abi } from "../devnet/abis.ts"
import { devnetAccounts, makeSender } from "../devnet/tx.ts"
import type { Stack } from "./stack.ts"
import type { Recorder } from "./stats.ts"

/** One kind of request: a route class (for the latency table) and how to make one. */
export interface Operation {
  readonly routeClass: string
  /** The request kind, for the report of non-2xx answers (e.g. `GET /api/v1/pools/:pool`). */
  readonly name?: string
  readonly weight: number
  readonly run: () => Promise<Outcome>
}

/**
 * An answer's status; for a 5xx also the `code` of its error body and the start of its message, so that the report
 * says which failure it was (one code can have several causes).
 */
export type Outcome = number | { readonly status: number; readonly code: string | undefined }

export const statusOf = (outcome: Outcome) => (typeof outcome === "number" ? outcome : outcome.status)
export const codeOf = (outcome: Outcome) => (typeof outcome === "number" ? undefined : outcome.code)

const timeoutMs = 15_000
const call = async (url: string, init?: RequestInit): Promise<Outcome> => {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
  if (res.status < 500) {
    await res.arrayBuffer()
    return res.status
  }
  const body = (await res.json().catch(() => undefined)) as { code?: unknown; error?: unknown } | undefined
  const code = typeof body?.code === "string" ? body.code : undefined
  const message = typeof body?.error === "string" ? `: ${body.error.slice(0, 60)}` : ""
  return { status: res.status, code: code === undefined ? undefined : `${code}${message}` }
}
const json = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any }
}
const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(Math.random() * xs.length)]!
const postJson = (_url: string, body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...headers }
})

interface Deployments {
  readonly contracts: {
    readonly weth9: Address
    readonly stablecoin: Address
    readonly swapRouter02: Address
  }
  readonly launchpad?: { readonly fireLaunch: Address }
  readonly launches: ReadonlyArray<{
    readonly token: Address
    readonly pool: Address
    readonly fee: number
    readonly canonical: boolean
  }>
}

export const readDeployments = (stack: Stack): Deployments =>
  JSON.parse(NodeFs.readFileSync(NodePath.join(stack.dataDir, "devnet", "deployments.json"), "utf8"))

/**
 * Waits until the stack serves the seeded data the workload asks for: every canonical launch's token page, pool and
 * a quote into it. The `ready:` line only says the services listen; the indexer may still be catching up with the
 * seeded chain (on a loaded machine for seconds), and until it has, those pages are 404 and quotes into the launch
 * NO_POOLS_AVAILABLE, correctly: a load balancer would hold traffic until the readiness probe passes. Returns what
 * the first look found missing and how long the wait took.
 */
export const waitForSeededData = async (stack: Stack, d: Deployments, deadlineMs = 300_000) => {
  const t0 = performance.now()
  const canonical = d.launches.filter((l) => l.canonical)
  const checks = canonical.flatMap((l) => [
    `${stack.urls.client}/v1/tokens/${l.token}`,
    `${stack.urls.exchange}/api/v1/pools/${l.pool}-${stack.chainId}`,
    `${stack.urls.exchange}/api/v1/quote?chainId=${stack.chainId}&tokenInAddress=${d.contracts.weth9}&tokenOutAddress=${l.token}` +
      `&amount=${10n ** 16n}&type=exactIn&recipient=0x70997970c51812dc3a010c7d01b50e0d17dc79c8`
  ])
  let firstMissing: Array<string> | undefined
  for (;;) {
    const answers = await Promise.all(checks.map((url) => call(url).catch(() => 0)))
    const missing = answers.flatMap((a, i) =>
      statusOf(a) === 200 ? [] : [`${statusOf(a)} ${checks[i]!.split("?")[0]}`]
    )
    firstMissing ??= missing
    if (missing.length === 0) return { seconds: (performance.now() - t0) / 1000, firstMissing, checked: checks.length }
    if (performance.now() - t0 > deadlineMs)
      throw new Error(`seeded data not served: ${missing.slice(0, 5).join(", ")}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * The request mix. Sign-ins keep a pool of session tokens that the authenticated reads use. Quotes and comments are
 * included only when the stack serves those routes (they were being built when this was written).
 */
export const operations = async (
  stack: Stack,
  d: Deployments
): Promise<{ ops: Array<Operation>; features: Array<string> }> => {
  const { client, exchange, search, indexer } = stack.urls
  const tokens: Array<string> = []
  const signIn = async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const nonce = await json(`${client}/v1/session/wallet/nonce?address=${account.address}`)
    if (nonce.status !== 200) return nonce.status
    const message = createSiweMessage({
      domain: "localhost:3000",
      address: account.address,
      statement: "Sign in to Fire",
      uri: "http://localhost:3000",
      version: "1",
      chainId: stack.chainId,
      nonce: nonce.body.nonce,
      issuedAt: new Date()
    })
    const signature = await account.signMessage({ message })
    const verified = await json(`${client}/v1/session/wallet/verify`, postJson("", { message, signature }))
    if (verified.status === 200) {
      tokens.push(verified.body.token)
      if (tokens.length > 200) tokens.shift()
    }
    return verified.status
  }
  await signIn()
  const auth = () => ({ authorization: `Bearer ${pick(tokens)}` })
  const canonical = d.launches.filter((l) => l.canonical)
  const launch = () => pick(canonical).token
  const pool = () => `${pick(canonical).pool}-${stack.chainId}`
  const tokenId = () => `${launch()}-${stack.chainId}`
  const terms = ["fi", "fire", "usd", "we", "launch", "to", "a"]
  const ops: Array<Operation> = [
    { routeClass: "signin", weight: 3, run: signIn },
    {
      routeClass: "client.read",
      name: "GET /v1/tokens/:x",
      weight: 8,
      run: () => call(`${client}/v1/tokens/${launch()}`)
    },
    { routeClass: "client.read", name: "GET /v1/feed", weight: 5, run: () => call(`${client}/v1/feed`) },
    {
      routeClass: "client.read",
      name: "GET /v1/competition/stats",
      weight: 3,
      run: () => call(`${client}/v1/competition/stats`)
    },
    {
      routeClass: "client.read",
      name: "GET /v1/tokens/:x/buyers",
      weight: 3,
      run: () => call(`${client}/v1/tokens/${launch()}/buyers`)
    },
    {
      routeClass: "client.auth",
      name: "GET /v1/users/me",
      weight: 5,
      run: () => call(`${client}/v1/users/me`, { headers: auth() })
    },
    {
      routeClass: "client.auth",
      name: "GET /v1/notifications",
      weight: 4,
      run: () => call(`${client}/v1/notifications`, { headers: auth() })
    },
    {
      routeClass: "client.auth",
      name: "GET /v1/fuel/credits",
      weight: 2,
      run: () => call(`${client}/v1/fuel/credits`, { headers: auth() })
    },
    { routeClass: "exchange.read", name: "GET /api/v1/pools", weight: 6, run: () => call(`${exchange}/api/v1/pools`) },
    {
      routeClass: "exchange.read",
      name: "GET /api/v1/pools/:x",
      weight: 5,
      run: () => call(`${exchange}/api/v1/pools/${pool()}`)
    },
    {
      routeClass: "exchange.read",
      name: "GET /api/v1/pools/:x/swaps",
      weight: 3,
      run: () => call(`${exchange}/api/v1/pools/${pool()}/swaps`)
    },
    {
      routeClass: "exchange.read",
      name: "GET /api/v1/tokens/trending",
      weight: 4,
      run: () => call(`${exchange}/api/v1/tokens/trending`)
    },
    {
      routeClass: "exchange.read",
      name: "GET /api/v1/tokens/:x",
      weight: 3,
      run: () => call(`${exchange}/api/v1/tokens/${tokenId()}`)
    },
    {
      routeClass: "exchange.read",
      name: "GET /api/v1/stats/global",
      weight: 2,
      run: () => call(`${exchange}/api/v1/stats/global`)
    },
    {
      routeClass: "search",
      name: "GET /api/v1/search",
      weight: 6,
      run: () => call(`${search}/api/v1/search?q=${pick(terms)}`)
    },
    {
      routeClass: "search",
      name: "GET /api/v1/autocomplete",
      weight: 4,
      run: () => call(`${search}/api/v1/autocomplete?q=${pick(terms)}`)
    },
    {
      routeClass: "graphql",
      weight: 8,
      run: () =>
        json(
          `${indexer}/v1/graphql`,
          postJson("", {
            query: pick([
              "{ launches(first: 10, orderBy: blockNumber, orderDirection: desc) { items { token pool tokenInfo { symbol } } } }",
              "{ swaps(first: 20) { items { blockNumber logIndex pool amount0 amount1 } } }",
              "{ _meta { ready lastIndexedBlock lagBlocks } }"
            ])
          })
        ).then((res) => {
          if (res.body?.errors !== undefined)
            throw new Error(`graphql: ${JSON.stringify(res.body.errors).slice(0, 120)}`)
          return res.status
        })
    }
  ]
  const features: Array<string> = []
  const QUOTE_RECIPIENT = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
  const exchangeDoc = await json(`${exchange}/docs/openapi.json`)
  if (exchangeDoc.body?.paths?.["/api/v1/quote"] !== undefined) {
    features.push("quotes")
    ops.push({
      routeClass: "quote",
      weight: 6,
      run: () =>
        // The spec's GET /api/v1/quote parameters (chainId, recipient; no key configured: local development).
        call(
          `${exchange}/api/v1/quote?chainId=${stack.chainId}&tokenInAddress=${d.contracts.weth9}&tokenOutAddress=${launch()}` +
            `&amount=${10n ** 16n}&type=exactIn&recipient=${QUOTE_RECIPIENT}`
        )
    })
  }
  const clientDoc = await json(`${client}/docs/openapi.json`)
  if (clientDoc.body?.paths?.["/v1/comments"] !== undefined) {
    features.push("comments")
    ops.push(
      {
        routeClass: "comments.read",
        name: "GET /v1/comments/tokens/:x",
        weight: 4,
        run: () => call(`${client}/v1/comments/tokens/${launch()}`)
      },
      {
        routeClass: "comments.write",
        weight: 2,
        run: () => call(`${client}/v1/comments`, postJson("", { token: launch(), text: `soak ${Date.now()}` }, auth()))
      }
    )
  }
  return { ops, features }
}

/**
 * Open GraphQL subscriptions (launches and swaps of random pools) over graphql-ws, churned: every `churnMs` a
 * quarter of them close and as many open, as clients come and go.
 */
export const subscriptions = (stack: Stack, d: Deployments, r: Recorder, count: number, churnMs: number) => {
  const url = `${stack.urls.indexer.replace(/^http/, "ws")}/v1/graphql`
  const open = () => {
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => r.error("graphql-ws: connect failed")
    })
    const query =
      Math.random() < 0.5
        ? "subscription { launches { token } }"
        : `subscription { swaps(pool: "${pick(d.launches).pool.toLowerCase()}") { pool amount0 } }`
    client.subscribe(
      { query },
      {
        next: (v) => {
          if ((v as any).errors) r.error(`subscription: ${JSON.stringify((v as any).errors).slice(0, 120)}`)
          else r.subscriptionEvents++
        },
        error: (e) => r.error(`subscription: ${e instanceof Error ? e.message : JSON.stringify(e).slice(0, 120)}`),
        complete: () => {}
      }
    )
    return client
  }
  let clients = Array.from({ length: count }, open)
  const timer = setInterval(() => {
    const n = Math.ceil(clients.length / 4)
    for (const c of clients.splice(0, n)) void c.dispose()
    clients = [...clients, ...Array.from({ length: n }, open)]
  }, churnMs)
  return async () => {
    clearInterval(timer)
    await Promise.all(clients.map((c) => c.dispose()))
  }
}

/** Chain activity on the devnet: a swap (ETH → a launch token or the stablecoin) every `swapMs`, a new launch every 20th. */
export const chainActivity = (stack: Stack, d: Deployments, r: Recorder, swapMs: number) => {
  const sender = makeSender(stack.chainId, stack.rpcUrl)
  const accounts = devnetAccounts().slice(2, 8)
  let n = 0
  let busy = false
  const tick = async () => {
    if (busy) return
    busy = true
    try {
      n++
      const from = pick(accounts)
      if (n % 20 === 0) {
        await sender.write(from, d.launchpad!.fireLaunch, FireLaunchAbi, "ignite", [`Soak ${n}`, `SK${n}`])
      } else {
        const target =
          Math.random() < 0.3
            ? { token: d.contracts.stablecoin, fee: 500 }
            : pick(d.launches.filter((l) => l.canonical))
        const amountIn = 10n ** 15n * BigInt(1 + Math.floor(Math.random() * 50))
        await sender.write(
          from,
          d.contracts.swapRouter02,
          swapRouter02Abi,
          "exactInputSingle",
          [
            {
              tokenIn: d.contracts.weth9,
              tokenOut: target.token,
              fee: target.fee,
              recipient: from.address,
              amountIn,
              amountOutMinimum: 0n,
              sqrtPriceLimitX96: 0n
            }
          ],
          amountIn
        )
      }
      r.chainTxs++
    } catch (error) {
      r.error(`chain: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`)
    } finally {
      busy = false
    }
  }
  const timer = setInterval(() => void tick(), swapMs)
  return () => clearInterval(timer)
}
