import { type Chain, createPublicClient, defineChain, http, type PublicClient, webSocket } from "viem"

/** The viem chain of a chain id and RPC URL (anvil's id 31337 is named as the devnet). */
export const devnetChain = (chainId: number, rpcUrl: string): Chain =>
  defineChain({
    id: chainId,
    name: chainId === 31337 ? "Fire devnet (anvil)" : `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } }
  })

/** A viem public client; WebSocket transport for ws(s):// URLs, HTTP otherwise. */
/** `timeoutMs`: how long one request may take before it fails as a timeout (viem's default, 10 s, when undefined). */
export const makePublicClient = (chainId: number, rpcUrl: string, timeoutMs?: number): PublicClient => {
  const timeout = timeoutMs === undefined ? {} : { timeout: timeoutMs }
  return createPublicClient({
    chain: devnetChain(chainId, rpcUrl),
    transport: /^wss?:\/\//.test(rpcUrl) ? webSocket(rpcUrl, timeout) : http(rpcUrl, { retryCount: 0, ...timeout })
  }) as PublicClient
}
