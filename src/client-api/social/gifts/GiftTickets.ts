import { Option } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * Claim tickets: what GET /v1/gifts/prepare promised, signed with HMAC-SHA256 so that POST /v1/gifts can check it was
 * issued by us for this user, cycle and amount, and is not expired. `v1.<user>.<cycle>.<amount>.<streak>.<expiresMs>.<mac>`.
 */
export interface TicketClaims {
  readonly userId: string
  readonly cycle: number
  readonly amount: string
  readonly streak: number
  readonly expiresAtMs: number
}

const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url")

export const signTicket = (key: Buffer, claims: TicketClaims): string => {
  const body = ["v1", claims.userId, claims.cycle, claims.amount, claims.streak, claims.expiresAtMs].join(".")
  return `${body}.${mac(key, body)}`
}

/** None when the ticket is malformed or its MAC does not verify (expiry is the caller's check). */
export const verifyTicket = (key: Buffer, ticket: string): Option.Option<TicketClaims> => {
  const parts = ticket.split(".")
  if (parts.length !== 7 || parts[0] !== "v1") return Option.none()
  const [, userId, cycle, amount, streak, expires, given] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string
  ]
  const expected = Buffer.from(mac(key, parts.slice(0, 6).join(".")))
  const actual = Buffer.from(given)
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return Option.none()
  if (!/^\d+$/.test(cycle) || !/^\d+$/.test(amount) || !/^\d+$/.test(streak) || !/^\d+$/.test(expires))
    return Option.none()
  return Option.some({ userId, cycle: Number(cycle), amount, streak: Number(streak), expiresAtMs: Number(expires) })
}
