import { Config, Effect, Layer } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

/**
 * A rate of new `/mcp` sessions across all callers (issue 23, H2). The per-IP `initialize` limit (McpGuard.ts) does
 * not bound a caller with many addresses: 10,000 calls from 500 of them (bench:abuse) cost ~1.7 ms of the main
 * thread each in Effect's MCP runtime, kept the event loop ~90 % busy for 19 s and the other callers waited behind
 * them, and cycled the table of MCP_MAX_SESSIONS live sessions every 0.6 s, pushing out the sessions of the agents
 * in use. Held to this rate, a new session costs the process at most `perSecond` × 1.7 ms of a core, and the table
 * cannot turn over faster than MCP_MAX_SESSIONS / `perSecond` seconds.
 *
 * The refusal is decided from the request line and headers alone (a POST to `/mcp` without `Mcp-Session-Id` asks
 * for a new session), before the body is read or decoded. Only opened sessions spend the rate: a request refused
 * after (per-IP limit, bounds, a malformed message) gives its reservation back, so one address past its own limit
 * cannot spend the rate of the others.
 */

export interface NewSessionRate {
  /** MCP_NEW_SESSIONS_PER_SECOND: sessions opened per second, across all callers; 0 turns the rate off. */
  readonly perSecond: number
  /** MCP_NEW_SESSIONS_BURST: sessions that may open at once after a quiet period. */
  readonly burst: number
}

export const newSessionRateConfig: Config.Config<NewSessionRate> = Config.all({
  perSecond: Config.Number("MCP_NEW_SESSIONS_PER_SECOND").pipe(Config.withDefault(10)),
  burst: Config.Int("MCP_NEW_SESSIONS_BURST").pipe(Config.withDefault(100))
})

/**
 * A token bucket of `burst` tokens refilled at `perSecond`. A new-session request reserves a token while it runs
 * (`enter`), so requests in flight together cannot pass the bucket; it spends the token only if it opened a session.
 */
export class NewSessionBucket {
  private tokens: number
  private at: number
  private reserved = 0
  private readonly rate: NewSessionRate

  constructor(rate: NewSessionRate, now: number) {
    this.rate = rate
    this.tokens = rate.burst
    this.at = now
  }

  private refill(now: number) {
    if (now > this.at)
      this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.at) * this.rate.perSecond) / 1000)
    this.at = Math.max(this.at, now)
  }

  /** Reserves a token for a new-session request: false when none is free (refuse it). */
  enter(now: number): boolean {
    this.refill(now)
    if (this.tokens - this.reserved < 1) return false
    this.reserved++
    return true
  }

  /** The request ended: its reservation is given back. */
  leave() {
    this.reserved = Math.max(0, this.reserved - 1)
  }

  /** A session was opened: its token is spent. */
  spend(now: number) {
    this.refill(now)
    this.tokens -= 1
  }

  /** Whole seconds until a token is free. */
  retryAfterSeconds(now: number): number {
    this.refill(now)
    return Math.max(1, Math.ceil((1 - (this.tokens - this.reserved)) / this.rate.perSecond))
  }
}

const SESSION_HEADER = "mcp-session-id"

/** 503: the server, not this caller, is past its rate; a JSON-RPC error like McpGuard's (the id is unread). */
const busy = (rate: NewSessionRate, retryAfter: number) =>
  HttpServerResponse.jsonUnsafe(
    {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: `Too many new MCP sessions across all callers (${rate.perSecond} per s); retry after ${retryAfter} s`,
        data: { code: "TOO_MANY_NEW_SESSIONS" }
      }
    },
    { status: 503, headers: { "retry-after": String(retryAfter) } }
  )

/** The middleware holding `path`'s new sessions to MCP_NEW_SESSIONS_PER_SECOND (nothing when it is 0). */
export const mcpNewSessionRate = (path: string) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const rate = yield* newSessionRateConfig
      if (rate.perSecond <= 0) return Layer.empty
      const bucket = new NewSessionBucket(rate, Date.now())
      // The runtime sets Mcp-Session-Id in a pre-response handler: this one, appended after it, sees the header.
      const spendIfOpened = HttpEffect.appendPreResponseHandler((_request, sent) =>
        Effect.sync(() => {
          if (sent.headers[SESSION_HEADER] !== undefined) bucket.spend(Date.now())
          return sent
        })
      )
      const leave = Effect.sync(() => bucket.leave())
      const gate = <E, R>(inner: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (request.method !== "POST" || request.headers[SESSION_HEADER] !== undefined) return yield* inner
          const url = request.url
          const query = url.indexOf("?")
          if ((query < 0 ? url : url.slice(0, query)) !== path) return yield* inner
          const now = Date.now()
          if (!bucket.enter(now)) return busy(rate, bucket.retryAfterSeconds(now))
          return yield* Effect.ensuring(
            Effect.tap(inner, () => spendIfOpened),
            leave
          )
        })
      return HttpRouter.middleware(Effect.succeed(gate), { global: true })
    })
  )
