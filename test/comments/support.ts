import { assert } from "@effect/vitest"
import { Effect } from "effect"
import * as NodeHttp from "node:http"
import type { LocalAccount } from "viem/accounts"
import { baseUrl } from "../support/TestServer.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { bearer, client, postJson } from "../support/http.ts"
import { signIn } from "../sessions/support.ts"

/** Comment-test plumbing over the social server (client + indexer over the seeded devnet). */

/** Canonical launched tokens of the seeded devnet (visible once the indexer has caught up). */
export const launchedTokens = Effect.map(AnvilChain, (anvil) =>
  anvil.deployments.launches.filter((l) => l.canonical).map((l) => l.token)
)

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

/**
 * POST on a fresh connection (no keep-alive pool): a burst of a thousand requests must not reuse a pooled socket
 * the server is just closing after its keep-alive timeout (ECONNRESET on a loaded machine), which is not what the
 * burst tests.
 */
export const postFresh = (path: string, body: unknown, headers: Record<string, string>) =>
  Effect.flatMap(baseUrl("client"), (base) =>
    Effect.promise(
      () =>
        new Promise<{ status: number; body: any }>((resolve, reject) => {
          const data = JSON.stringify(body)
          const request = NodeHttp.request(
            `${base}${path}`,
            {
              method: "POST",
              agent: false,
              headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data), ...headers }
            },
            (response) => {
              const chunks: Array<Buffer> = []
              response.on("data", (c: Buffer) => chunks.push(c))
              response.on("end", () =>
                resolve({
                  status: response.statusCode ?? 0,
                  body: JSON.parse(Buffer.concat(chunks).toString() || "null")
                })
              )
            }
          )
          request.on("error", reject)
          request.end(data)
        })
    )
  )
