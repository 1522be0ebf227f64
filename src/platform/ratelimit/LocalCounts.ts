import type { RateLimitRule } from "./RateLimitConfig.ts"
import type { WindowCount } from "./RateLimitStore.ts"

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  /** Requests left in the current window after this one (0 when refused). */
  readonly remaining: number
  /** Whole seconds until the window ends (at least 1 while it is open); for a burst refusal, until one may pass. */
  readonly resetSeconds: number
  /** Refused by the rule's burst (BurstBuckets.ts), not its window. */
  readonly burst?: boolean
}

/** A request waiting for a store round trip; `undefined`: the store failed (the request is allowed). */
export interface Waiter {
  readonly resolve: (position: { readonly count: WindowCount; readonly nth: number } | undefined) => void
}

/**
 * What one process knows of one shared counter (`bucket:key`), and the hits it has not told the store about yet.
 * `known + outstanding` is this process's running count of the window.
 */
export interface Counter {
  readonly name: string
  windowMs: number
  /** Local hits allowed before the store must have them (`batchFor` the counter's rule). */
  batch: number
  /** The window's total at the store's last answer (every process's hits sent so far). */
  known: number
  /** When that window ends, by this process's clock; 0 until the first answer (and after a store failure). */
  endsAt: number
  /** When the store last answered, by this process's clock. */
  answeredAt: number
  /** Hits allowed here without a round trip and not yet sent. */
  unsent: number
  /** Local hits inside the round trip under way. */
  sendingLocal: number
  /** Waiting requests inside the round trip under way. */
  sendingWaiters: number
  /** Requests waiting for the next round trip. */
  readonly waiters: Array<Waiter>
  /** A round trip is under way; at most one per counter, so this process's hits reach the store in order. */
  busy: boolean
  /** A flush of `unsent` is scheduled. */
  timer: boolean
}

export const newCounter = (name: string, windowMs: number): Counter => ({
  name,
  windowMs,
  batch: 0,
  known: 0,
  endsAt: 0,
  answeredAt: 0,
  unsent: 0,
  sendingLocal: 0,
  sendingWaiters: 0,
  waiters: [],
  busy: false,
  timer: false
})

/**
 * The local batch of a counter under `rule`: the configured batch (RATE_LIMIT_LOCAL_BATCH), or 1 % of the limit when
 * that is larger. A fixed batch of 100 under a high limit (an internal client allowed 100,000 a minute) sends most
 * requests of a busy counter to the store: at 10,000 req/s the 100 local hits are used up in 10 ms, before the round
 * trip that acknowledges them returns, and every request after them waits for the store. Scaling with the limit keeps
 * the worst-case overshoot of P processes, (P − 1) × batch, within (P − 1) % of the limit for such rules, and leaves
 * the default rule (600 per minute: batch 100) as it was. 0 stays 0 (a round trip per request).
 */
export const batchFor = (configured: number, rule: RateLimitRule) =>
  configured <= 0 ? 0 : Math.max(configured, Math.floor(rule.limit / 100))

export const isIdle = (c: Counter, now: number) =>
  !c.busy && !c.timer && c.unsent === 0 && c.waiters.length === 0 && c.endsAt <= now

/**
 * Decides a hit without asking the store, or returns `undefined` when the store must decide (nothing counted then).
 * Local decisions are made only while all of these hold:
 * - the window the store last reported is still open by this process's clock;
 * - no request of this counter waits for (or is inside) a round trip: the store's positions for those requests
 *   assume that every local hit before them was sent first, which holds only if no local hit is taken meanwhile;
 * - fewer than `batch` local hits are not yet acknowledged by the store (this process's share of the overshoot);
 * - the running count stays `batch` hits below the limit, so the last part of every window is decided by the store.
 * With one process the local count is exact (every hit of the counter passes through this process, in order), so
 * the answers are the ones a round trip per request would give. Several processes: see RateLimiter's bound.
 *
 * With `refuseForMs` > 0, a hit is also refused here while the store's last answer, at most that long ago, said the
 * window is full (`known` ≥ the limit) and the window is still open: counts only grow within a window and `known` is
 * a lower bound of every process's hits, so the store would refuse it too. The next hit after that asks the store
 * again (a counter an operator deleted, or a window that ended early by the store's clock, is seen within
 * `refuseForMs`). Such a refusal is not sent to the store: past the limit a count changes no decision of its window,
 * and sent late it would land in the next window and take an allowed request's place there. Without this, each
 * request past the limit cost a store round trip (a write on PostgreSQL) just to be told 429: the cheapest request a
 * flooding caller sends cost the most.
 */
export const decideLocally = (
  c: Counter,
  rule: RateLimitRule,
  batch: number,
  now: number,
  refuseForMs = 0
): RateLimitDecision | undefined => {
  if (batch <= 0 || now >= c.endsAt) return undefined
  if (c.known >= rule.limit) {
    if (now - c.answeredAt >= refuseForMs) return undefined
    return {
      allowed: false,
      limit: rule.limit,
      remaining: 0,
      resetSeconds: Math.max(1, Math.ceil((c.endsAt - now) / 1000))
    }
  }
  if (c.waiters.length > 0 || c.sendingWaiters > 0) return undefined
  const local = c.unsent + c.sendingLocal
  const running = c.known + local + 1
  if (local >= batch || running + batch > rule.limit) return undefined
  c.unsent++
  return {
    allowed: true,
    limit: rule.limit,
    remaining: rule.limit - running,
    resetSeconds: Math.max(1, Math.ceil((c.endsAt - now) / 1000))
  }
}

/** The decision of the `nth` hit of a window, as the store counted it. */
export const decisionAt = (rule: RateLimitRule, count: WindowCount, nth: number): RateLimitDecision => {
  const allowed = nth <= rule.limit
  return {
    allowed,
    limit: rule.limit,
    remaining: allowed ? rule.limit - nth : 0,
    resetSeconds: Math.max(1, Math.ceil(count.resetMs / 1000))
  }
}
