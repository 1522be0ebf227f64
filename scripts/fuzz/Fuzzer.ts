import fc from "fast-check"
import type { LocalAccount } from "viem/accounts"
import { privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import { SESSION_COOKIE } from "../../src/client-api/accounts/sessions/SessionConfig.ts"
import { type Route, routesOf, type Service } from "./OpenApiRoutes.ts"
import { type FuzzRequest, requestsOf } from "./Requests.ts"

/**
 * Runs the contract fuzz: for every documented route of the client, exchange and search APIs it sends fast-check
 * generated requests (each route without a session, and the routes that take one also with a fresh valid session),
 * and checks each answer: never a 5xx, never a hang, never a dropped connection, and every 4xx in the API's error
 * shape. Used by test/fuzz/ContractFuzz.test.ts (a few requests per route) and `npm run fuzz` (≥ 10,000).
 */

export type Urls = Readonly<Record<Service, string>>

export interface FuzzOptions {
  readonly urls: Urls
  /** Requests per route and session mode. */
  readonly perRoute: number
  readonly seed: number
  readonly concurrency: number
  /** Bodies of this many bytes are over the limit (MAX_BODY_BYTES + 1). */
  readonly oversizeBytes: number
  /** A request still unanswered after this long is a hang. */
  readonly timeoutMs: number
  /** The wallet of ADMIN_WALLETS, for the `/admin` routes' sessions; other routes get a new wallet each. */
  readonly adminKey: `0x${string}`
  /** Only routes whose `METHOD path` matches (for focused runs). */
  readonly only?: RegExp
  /** One line per request (status and request), for debugging the generators. */
  readonly trace?: (line: string) => void
  /** Progress lines (one per route and session mode). */
  readonly log?: (line: string) => void
}

export interface Violation {
  readonly route: string
  readonly problem: string
  readonly request: string
}

export interface FuzzReport {
  readonly total: number
  readonly byClass: Record<string, number>
  readonly byStatus: Record<string, number>
  readonly routes: number
  readonly violations: ReadonlyArray<Violation>
  readonly seconds: number
}

/** The routes of the three APIs, read from their served OpenAPI documents. */
export const loadRoutes = async (urls: Urls): Promise<ReadonlyArray<Route>> => {
  const all = await Promise.all(
    (Object.keys(urls) as Array<Service>).map(async (service) => {
      const response = await fetch(`${urls[service]}/docs/openapi.json`)
      if (response.status !== 200) throw new Error(`${service} /docs/openapi.json: ${response.status}`)
      return routesOf(service, (await response.json()) as Parameters<typeof routesOf>[1])
    })
  )
  return all.flat()
}

/** Wallet sign-in (SIWE) the way a client does it; returns the session JWT. */
export const signIn = async (clientUrl: string, account: LocalAccount): Promise<string> => {
  const nonceRes = await fetch(`${clientUrl}/v1/session/wallet/nonce?address=${account.address}`)
  const { nonce } = (await nonceRes.json()) as { nonce: string }
  const message = createSiweMessage({
    domain: new URL(clientUrl).host,
    address: account.address,
    statement: "Sign in to Fire",
    uri: clientUrl,
    version: "1",
    chainId: 31337,
    nonce,
    issuedAt: new Date()
  })
  const signature = await account.signMessage({ message })
  const res = await fetch(`${clientUrl}/v1/session/wallet/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, signature })
  })
  const body = (await res.json()) as { token?: string }
  if (res.status !== 200 || body.token === undefined) throw new Error(`sign-in: ${res.status} ${JSON.stringify(body)}`)
  return body.token
}

const errorShapeProblem = (service: Service, body: unknown): string | undefined => {
  if (typeof body !== "object" || body === null) return "error body is not a JSON object"
  const b = body as Record<string, unknown>
  if (service === "exchange") {
    if (typeof b.error !== "string" || b.error === "") return "exchange error body without `error`"
    if (b.code !== undefined && typeof b.code !== "string") return "exchange error `code` is not a string"
    return undefined
  }
  if (typeof b.code !== "string" || !/^[A-Z][A-Z0-9_]*$/.test(b.code))
    return "error body without a SCREAMING_CASE `code`"
  if (typeof b.message !== "string" || b.message === "") return "error body without `message`"
  return undefined
}

const describe = (request: FuzzRequest) => {
  const body =
    request.body === undefined
      ? ""
      : typeof request.body === "string"
        ? ` body=${JSON.stringify(request.body.length > 300 ? `${request.body.slice(0, 300)}…(${request.body.length})` : request.body)}`
        : ` body=<${request.body.length} bytes>`
  return (
    `${request.method} ${request.pathAndQuery.slice(0, 400)} [${request.kind.join("; ")}] session=${request.sessionVia}` +
    ` headers=${JSON.stringify(request.headers)}${body}`
  )
}

const bogusSession = ["Bearer x", "Bearer eyJhbGciOiJub25lIn0.e30.", "Basic Zm9vOmJhcg==", `Bearer ${"a".repeat(5000)}`]

/** Sends one request and returns its status class, or the problem it shows. */
const send = async (base: string, request: FuzzRequest, token: string | undefined, timeoutMs: number) => {
  const headers: Record<string, string> = { ...request.headers }
  if (request.sessionVia === "bearer" && token) headers.authorization = `Bearer ${token}`
  if (request.sessionVia === "cookie" && token) headers.cookie = `${SESSION_COOKIE}=${token}`
  if (request.sessionVia === "bogus") {
    headers.authorization = bogusSession[request.pathAndQuery.length % bogusSession.length]!
    headers.cookie = `${SESSION_COOKIE}=%%%; other=1`
  }
  try {
    const response = await fetch(`${base}${request.pathAndQuery}`, {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs)
    })
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      // checked below
    }
    const problem =
      response.status >= 500
        ? `${response.status} ${text.slice(0, 200)}`
        : response.status >= 400
          ? errorShapeProblem(request.route.service, json)?.concat(` (${response.status}: ${text.slice(0, 120)})`)
          : undefined
    return { status: String(response.status), problem }
  } catch (error) {
    const name = (error as Error).name
    return name === "TimeoutError"
      ? { status: "timeout", problem: `no answer within ${timeoutMs} ms` }
      : { status: "network error", problem: `connection failed: ${String((error as Error).cause ?? error)}` }
  }
}

const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 0)

/** Runs the fuzz and returns the counts and every violation (the caller decides how to report). */
export const runFuzz = async (options: FuzzOptions): Promise<FuzzReport> => {
  const started = performance.now()
  options.log?.("loading routes")
  const routes = (await loadRoutes(options.urls)).filter((r) => options.only?.test(`${r.method} ${r.path}`) ?? true)
  const jobs = routes.flatMap((route) =>
    route.secured
      ? [
          { route, withSession: true },
          { route, withSession: false }
        ]
      : [{ route, withSession: false }]
  )
  const byStatus: Record<string, number> = {}
  const violations: Array<Violation> = []
  const admin = privateKeyToAccount(options.adminKey)
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const { route, withSession } = jobs[next++]!
      const routeSeed = options.seed + hash(`${route.method} ${route.path} ${withSession}`)
      const requests = fc.sample(requestsOf(route, { oversizeBytes: options.oversizeBytes, withSession }), {
        numRuns: options.perRoute,
        seed: routeSeed
      })
      // The signing wallet comes from the seed too, so that FUZZ_SEED replays a run's requests and their sessions.
      const account = route.path.includes("/admin")
        ? admin
        : privateKeyToAccount(fc.sample(privateKeys, { numRuns: 1, seed: routeSeed + 1 })[0]!)
      const token = withSession ? await signIn(options.urls.client, account) : undefined
      options.log?.(
        `${route.service} ${route.method} ${route.path}${withSession ? " (session)" : ""}: ${requests.length}`
      )
      for (const request of requests) {
        const { status, problem } = await send(options.urls[route.service], request, token, options.timeoutMs)
        byStatus[status] = (byStatus[status] ?? 0) + 1
        options.trace?.(`${status} ${describe(request).slice(0, 300)}`)
        if (problem !== undefined) {
          violations.push({
            route: `${route.service} ${route.method} ${route.path}`,
            problem,
            request: describe(request)
          })
        }
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const byClass: Record<string, number> = {}
  for (const [status, n] of Object.entries(byStatus)) {
    const cls = /^\d+$/.test(status) ? `${status[0]}xx` : status
    byClass[cls] = (byClass[cls] ?? 0) + n
  }
  return {
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
    byClass,
    byStatus,
    routes: routes.length,
    violations,
    seconds: (performance.now() - started) / 1000
  }
}

/** Random secp256k1 keys (any 32 bytes below the group order; these are far below it). */
const privateKeys = fc
  .uint8Array({ minLength: 31, maxLength: 31 })
  .map((bytes) => `0x01${Buffer.from(bytes).toString("hex")}` as `0x${string}`)

/** Every service still answers its health route (the server survived the fuzz). */
export const stillAlive = async (urls: Urls) => {
  const paths: Record<Service, string> = { client: "/healthz", exchange: "/api/health", search: "/api/health" }
  const statuses = await Promise.all(
    (Object.keys(urls) as Array<Service>).map(async (service) => {
      const res = await fetch(`${urls[service]}${paths[service]}`, { signal: AbortSignal.timeout(10_000) })
      await res.arrayBuffer()
      return [service, res.status] as const
    })
  )
  return Object.fromEntries(statuses) as Record<Service, number>
}

/** Groups violations by route and problem (first example each), for a readable failure message. */
export const summarize = (violations: ReadonlyArray<Violation>, max = 40) => {
  const groups = new Map<string, { count: number; example: Violation }>()
  for (const v of violations) {
    const key = `${v.route} :: ${v.problem.slice(0, 80)}`
    const g = groups.get(key)
    if (g === undefined) groups.set(key, { count: 1, example: v })
    else g.count++
  }
  return [...groups.values()]
    .slice(0, max)
    .map(
      ({ count, example }) =>
        `${count}× ${example.route}: ${example.problem}\n    e.g. ${example.request.slice(0, 700)}`
    )
    .join("\n")
}
