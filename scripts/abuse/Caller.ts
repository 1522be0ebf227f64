/**
 * How `bench:abuse` talks to the stack. The stack runs with `TRUST_PROXY=true` and one trusted hop, and the bench is
 * that proxy: every request carries the `X-Forwarded-For` a proxy would append, so each attacker and each
 * well-behaved user has an address of its own (per-IP limits then separate them as they would in production),
 * and an attacker can still write forged entries to the left of it (issue 23 M1).
 */

export interface Answer {
  readonly status: number
  /** The error code of any of the services' bodies (REST `code`, GraphQL `extensions.code`, MCP `error.data.code`). */
  readonly code: string | undefined
  readonly body: any
  readonly ms: number
}

export const codeOf = (body: any): string | undefined => {
  if (typeof body !== "object" || body === null) return undefined
  if (typeof body.code === "string") return body.code
  const graphql = body.errors?.[0]?.extensions?.code
  if (typeof graphql === "string") return graphql
  const mcp = body.error?.data?.code
  return typeof mcp === "string" ? mcp : undefined
}

export interface SendOptions {
  readonly method?: string
  readonly headers?: Record<string, string>
  /** A string or bytes body; an object is sent as JSON with `content-type: application/json`. */
  readonly body?: string | Uint8Array | object
  /** The caller's address as the proxy appends it. */
  readonly ip: string
  /** Entries the caller wrote itself, left of the proxy's (forged). */
  readonly forged?: string
}

export const send = async (url: string, options: SendOptions): Promise<Answer> => {
  const json = options.body !== undefined && typeof options.body === "object" && !(options.body instanceof Uint8Array)
  const headers: Record<string, string> = {
    "x-forwarded-for": options.forged === undefined ? options.ip : `${options.forged}, ${options.ip}`,
    ...(json ? { "content-type": "application/json" } : {}),
    ...options.headers
  }
  const t0 = performance.now()
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    ...(options.body === undefined
      ? {}
      : { body: json ? JSON.stringify(options.body) : (options.body as string | Uint8Array<ArrayBuffer>) }),
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  const ms = performance.now() - t0
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON (an SSE frame from /mcp, or empty)
    const data = /^data: (.*)$/m.exec(text)?.[1]
    if (data !== undefined) body = JSON.parse(data)
  }
  return { status: response.status, code: codeOf(body), body, ms }
}

/** `count` calls of `f`, `concurrency` at a time, results in call order. */
export const pool = async <A>(count: number, concurrency: number, f: (i: number) => Promise<A>) => {
  const out: Array<A> = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++
        out[i] = await f(i)
      }
    })
  )
  return out
}

/** `200×120, 429 RATE_LIMITED×30`: answers grouped by status and code, in order of first appearance. */
export const tally = (answers: ReadonlyArray<{ readonly status: number; readonly code?: string | undefined }>) => {
  const counts = new Map<string, number>()
  for (const a of answers) {
    const key = a.code === undefined ? String(a.status) : `${a.status} ${a.code}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([k, n]) => (n === 1 ? k : `${k}×${n}`)).join(", ")
}

export const countOf = (answers: ReadonlyArray<{ readonly status: number }>, status: number) =>
  answers.filter((a) => a.status === status).length

let nextAttacker = 1
/**
 * A fresh attacker address, one per attack run so that the runs' per-IP windows do not mix: TEST-NET-3
 * (203.0.113.1–254), then the benchmarking range 198.18.0.0/15 (the bench repeats attacks: BENCH_MIN_SAMPLES).
 */
export const attackerIp = () => {
  const n = nextAttacker++
  if (n < 255) return `203.0.113.${n}`
  const m = n - 254
  return `198.${18 + ((m >> 16) & 1)}.${(m >> 8) & 255}.${m & 255}`
}

/** A random IPv4 address, as a forger writes into `X-Forwarded-For`. */
export const randomIpv4 = () => Array.from({ length: 4 }, () => 1 + Math.floor(Math.random() * 254)).join(".")

/** Addresses of many distinct callers (10.0.0.0/8), `n` ≥ 1. */
export const manyIp = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`

export const ms = (x: number) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ms`
