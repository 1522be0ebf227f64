import { Effect } from "effect"
import type { Transport } from "viem"
import { classifyRpcError } from "../src/indexer/fetch/RpcError.ts"
import { recordRpcRequest } from "../src/platform/metrics/Metrics.ts"
import { redactUrl } from "../src/platform/RedactUrl.ts"

/**
 * `transport` with every request recorded in the RPC metrics (src/platform/metrics/Metrics.ts: requests, duration,
 * errors by class, 429s), labelled by method and the redacted URL. layers/PublicClient.ts wraps each URL's transport
 * in it, under viem's fallback, so each attempt on each URL is one request, as the provider sees it: viem's
 * deduplication of identical requests in flight stays on the client's outer transport, and this inner one is asked
 * never to deduplicate.
 */
export const measured = (transport: Transport, url: string): Transport => {
  const endpoint = redactUrl(url)
  return (params) => {
    const inner = transport(params)
    const request = async (args: { method: string; params?: unknown }, options?: object) => {
      const started = performance.now()
      const labels = { method: args.method, endpoint }
      try {
        const result = await inner.request(args as never, { ...options, dedupe: false } as never)
        Effect.runSync(recordRpcRequest(labels, (performance.now() - started) / 1000))
        return result
      } catch (error) {
        const classified = classifyRpcError(args.method, error)
        Effect.runSync(
          recordRpcRequest(labels, (performance.now() - started) / 1000, {
            errorClass: classified.kind,
            rateLimited: isRateLimited(error)
          })
        )
        throw error
      }
    }
    return { ...inner, request: request as typeof inner.request }
  }
}

/** An HTTP 429, or a JSON-RPC error with code 429, anywhere in the error's causes. */
const isRateLimited = (error: unknown) => {
  let e = error as { status?: unknown; code?: unknown; cause?: unknown } | undefined
  for (let depth = 0; depth < 6 && e !== null && e !== undefined; depth++) {
    if (e.status === 429 || e.code === 429) return true
    e = e.cause as typeof e
  }
  return false
}
