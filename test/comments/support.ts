import { assert } from "@effect/vitest"
import { Effect } from "effect"
import type { LocalAccount } from "viem/accounts"
import { AnvilChain } from "../layers/AnvilChain.ts"
import { bearer, client, postJson, signIn } from "../sessions/support.ts"

/** Comment-test plumbing over the social server (client + indexer over the seeded devnet). */

/** Canonical launched tokens of the seeded devnet (visible once the indexer has caught up). */
export const launchedTokens = Effect.map(AnvilChain, (anvil) => anvil.deployments.launches.filter((l) => l.canonical).map((l) => l.token))

export interface Member {
  readonly token: string
  readonly id: string
  readonly headers: Record<string, string>
}

/** Signs in and returns the session token, the user id and the auth headers. */
export const member = (account: LocalAccount) =>
  Effect.map(signIn(account), (res): Member => {
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`)
    return { token: res.body.token, id: res.body.user.id, headers: bearer(res.body.token) }
  })

export const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  client(path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** Creates a comment and returns its view (fails the test on anything but 201). */
export const comment = (who: Member, token: string, text: string, extra: Record<string, unknown> = {}) =>
  Effect.map(postJson("/v1/comments", { token, text, ...extra }, who.headers), (res) => {
    assert.strictEqual(res.status, 201, JSON.stringify(res.body))
    return res.body
  })

export const notificationsOf = (who: Member) =>
  Effect.map(client("/v1/notifications?limit=100", { headers: who.headers }), (res) => {
    assert.strictEqual(res.status, 200, JSON.stringify(res.body))
    return res.body.items as Array<{ kind: string; payload: any }>
  })
