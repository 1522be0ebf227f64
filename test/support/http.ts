import { Effect } from "effect"
import { baseUrl, fetchJson } from "./TestServer.ts"

/**
 * HTTP helpers for tests against the client service started by TestServices (test/support/TestServer.ts): a request
 * to a path of that service, a JSON POST, and a bearer header.
 */

export const client = (path: string, init?: RequestInit) =>
  Effect.flatMap(baseUrl("client"), (base) => fetchJson(`${base}${path}`, init))

export const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  client(path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers }
  })

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
