import {
  type Chain,
  createPublicClient,
  defineChain,
  fallback,
  http,
  type PublicClient,
  type Transport,
  WebSocketRequestError,
  webSocket
} from "viem"
import { socketClientCache } from "viem/utils"
import { measured } from "./RpcMetrics.ts"

/** The viem chain of a chain id and RPC URL (anvil's id 31337 is named as the devnet). */
export const devnetChain = (chainId: number, rpcUrl: string): Chain =>
  defineChain({
    id: chainId,
    name: chainId === 31337 ? "Fire devnet (anvil)" : `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } }
  })

const isWebSocketUrl = (url: string) => /^wss?:\/\//i.test(url)

/** RPC_URL's entries: one URL or several separated by commas. */
export const parseRpcUrls = (value: string): ReadonlyArray<string> =>
  value
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "")

/**
 * Which URLs carry requests and which one new heads. Requests go over HTTP whenever RPC_URL has an http(s) URL (a
 * socket is one connection: a drop fails every request in flight, and viem's WebSocket transport gives up after one
 * failed reconnect); only when every entry is ws(s) do requests go over the socket. New heads come from RPC_WS_URL,
 * else from RPC_URL's first ws(s) entry, else nowhere (readers poll).
 */
export const rpcEndpoints = (
  rpcUrls: ReadonlyArray<string>,
  wsUrl: string | undefined
): { readonly requests: ReadonlyArray<string>; readonly heads: string | undefined } => {
  const httpUrls = rpcUrls.filter((u) => !isWebSocketUrl(u))
  return {
    requests: httpUrls.length > 0 ? httpUrls : rpcUrls,
    heads: wsUrl ?? rpcUrls.find(isWebSocketUrl)
  }
}

export interface PublicClientOptions {
  /** RPC_TIMEOUT_MS: how long one request may take before it fails as a timeout (viem's 10 s when undefined). */
  readonly timeoutMs?: number | undefined
  /** RPC_RANK_INTERVAL_MS: with several URLs, how often each is pinged to rank them by health (default 10 s). */
  readonly rankIntervalMs?: number | undefined
}

/** What closing a client stops: its sockets and its ranking pings. */
const closers = new WeakMap<PublicClient, () => Promise<void>>()

/**
 * A viem public client over `urls` (one URL or RPC_URL's list), each URL's transport HTTP or WebSocket and measured
 * (layers/RpcMetrics.ts). Several: viem's `fallback` over them in order, with `rank`: every `rankIntervalMs` each URL
 * answers an `eth_blockNumber` ping, and requests go first to the best by stability (0.7) and latency (0.3) over the
 * last 10 pings; a request that fails on one URL is sent to the next. Close it with `closePublicClient`.
 */
export const makePublicClient = (
  chainId: number,
  urls: string | ReadonlyArray<string>,
  timeoutMsOrOptions?: number | PublicClientOptions
): PublicClient => {
  const list = typeof urls === "string" ? [urls] : urls
  if (list.length === 0) throw new Error("makePublicClient: no RPC URL")
  const options: PublicClientOptions =
    typeof timeoutMsOrOptions === "number" ? { timeoutMs: timeoutMsOrOptions } : (timeoutMsOrOptions ?? {})
  const timeout = options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }
  const transports = list.map((url) =>
    measured(
      isWebSocketUrl(url) ? recoveringWebSocket(url, options.timeoutMs) : http(url, { retryCount: 0, ...timeout }),
      url
    )
  )
  let closed = false
  // A fallback even over one URL: its outer transport keeps viem's deduplication of identical requests in flight,
  // which the measured inner ones turn off (each of their requests is one the provider sees).
  const transport = fallback(transports, {
    retryCount: 0,
    rank: transports.length > 1 && {
      interval: options.rankIntervalMs ?? 10_000,
      // viem's default ping is net_listening, which some providers do not serve (that would rank them last).
      // viem's ranking loop cannot be stopped: after close it pings nothing.
      ping: ({ transport: t }) => (closed ? undefined : t.request({ method: "eth_blockNumber" })),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs })
    }
  })
  const client = createPublicClient({ chain: devnetChain(chainId, list[0]!), transport }) as PublicClient
  closers.set(client, async () => {
    closed = true
    for (const url of list.filter(isWebSocketUrl)) closeSocketOf(url)
  })
  return client
}

/** Stops what `makePublicClient` started (sockets, ranking pings); HTTP clients hold nothing to close. */
export const closePublicClient = (client: PublicClient): Promise<void> => closers.get(client)?.() ?? Promise.resolve()

/**
 * viem's WebSocket transport, made to recover. Its own reconnect gives up after one failed attempt (the attempt runs
 * while the previous one is marked in progress, so nothing schedules the next) and keeps the dead socket in its cache:
 * after an outage longer than its 2 s delay every request fails until the process restarts. So its reconnect is off,
 * and a request that finds the socket closed drops it from viem's cache: the next request opens a new one (the
 * callers' retries, with backoff, are the reconnect schedule). A failure without an open socket (a connection refused
 * surfaces as viem's UnknownRpcError around a DOM `ErrorEvent`, which no rule recognises) is rethrown as viem's
 * WebSocketRequestError, which the RPC error table (src/indexer/fetch/RpcError.ts) classifies as retryable.
 */
const recoveringWebSocket = (url: string, timeoutMs: number | undefined): Transport => {
  const inner = webSocket(url, socketConfig(timeoutMs))
  return (params) => {
    const transport = inner(params)
    return {
      ...transport,
      request: (async (args: never, requestOptions: never) => {
        try {
          return await transport.request(args, requestOptions)
        } catch (error) {
          if (!dropClosedSocket(url)) throw error // an answer over an open socket (a revert, a refusal)
          throw new WebSocketRequestError({ url, cause: error instanceof Error ? error : new Error(eventText(error)) })
        }
      }) as typeof transport.request
    }
  }
}

const socketConfig = (timeoutMs: number | undefined) => ({
  reconnect: false,
  retryCount: 0,
  ...(timeoutMs === undefined ? {} : { timeout: timeoutMs })
})

/** viem's shared sockets of `url` made with `socketConfig` (viem caches one per URL and options, for every client). */
const cachedSockets = (url: string) =>
  [...socketClientCache.entries()].flatMap(([key, rpc]) => {
    const { reconnect } = JSON.parse(key) as { reconnect?: unknown }
    return rpc.url === url && reconnect === false ? [rpc] : []
  })

const OPEN = 1
/** Drops `url`'s cached sockets that are not open; false when one is open (the failure was not the socket's). */
const dropClosedSocket = (url: string) => {
  let open = false
  for (const rpc of cachedSockets(url)) {
    if ((rpc.socket as { readyState?: number }).readyState === OPEN) open = true
    else rpc.close()
  }
  return !open
}

const closeSocketOf = (url: string) => {
  for (const rpc of cachedSockets(url)) rpc.close()
}

const eventText = (event: unknown) => {
  const e = event as { message?: unknown; type?: unknown; error?: { message?: unknown } } | undefined
  const text = e?.message ?? e?.error?.message ?? e?.type
  return `WebSocket ${typeof text === "string" && text !== "" ? text : "error"} (socket closed or refused)`
}
