import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { createServer } from "node:http"
import { compareWithReview, type ReviewedUse } from "./reviewedUses.ts"
import { bearer, client, postJson } from "../support/http.ts"
import { AccountsServer, newAccount, signIn, tokenFor } from "../sessions/support.ts"

/**
 * No server-side request to a URL a user supplies (docs/SECURITY.md, threat "server-side request forgery"):
 *
 * 1. Every place in the server code that can open an outbound HTTP connection is listed here with where it goes and
 *    why that is not the caller's choice; a new one fails the test until it is reviewed (as SqlReview.test.ts does
 *    for raw SQL). The one destination users do choose, a web-push endpoint, is https-only, refused on internal
 *    addresses at subscribe and at connection time, and covered by threat 6 (test/push/PushSsrf.test.ts).
 * 2. A running client service is handed URLs of a local HTTP server wherever a request takes something URL-like
 *    (profile and comment images, the SIWE message's URI and resources); every such request is refused or ignored,
 *    and the local server sees no request at all.
 */
const reviewed: Record<string, ReviewedUse> = {
  "layers/Anvil.ts": { uses: 1, why: "JSON-RPC to the embedded devnet this process started (its own 127.0.0.1 port)" },
  "layers/Chain.ts": { uses: 2, why: "the chain client of RPC_URL (operator configuration) or of the embedded devnet" },
  "layers/PublicClient.ts": {
    uses: 1,
    why: "the viem client that layers/Chain.ts makes for RPC_URL or the embedded devnet"
  },
  "layers/NewHeadsSocket.ts": {
    uses: 1,
    why: "the newHeads subscription on RPC_WS_URL or RPC_URL's ws(s) URL (operator configuration)"
  },
  "src/client-api/accounts/sessions/IdpSignIn.ts": {
    uses: 1,
    why: "the identity provider's keys from IDP_JWKS_URL (operator configuration); a token's own jku/x5u headers are not followed"
  },
  "src/search/typesense/TypesenseSearchIndex.ts": {
    uses: 1,
    why: "Typesense at TYPESENSE_URL (operator configuration)"
  },
  "src/mcp/McpTools.ts": {
    uses: 1,
    why: "MCP search tools to the search service: its bound address or SEARCH_URL (operator configuration)"
  },
  "src/client-api/notifications/push/PushSender.ts": {
    uses: 1,
    why:
      "web push to a subscription's endpoint: user-supplied by design (the Push API), https only with verified TLS, " +
      "through an Agent that refuses private/loopback/link-local/reserved addresses at connection time (threat 6)"
  },
  "src/sdk/index.ts": { uses: 2, why: "the typed client library for API consumers; not run by the server" },
  "src/cli/main.ts": {
    uses: 1,
    why: "the operator CLI (`npm run cli`), run in a terminal against the URL given to it"
  },
  "src/client-api/accounts/sessions/SignatureVerifier.ts": {
    uses: 1,
    why: "wraps the app's own chain client (RPC_URL or the devnet) to cap the gas of eth_call; no other destination"
  },
  // Not a request: the pattern matches the words "fetch (or take …" of a doc comment.
  "src/indexer/loop/Loop.ts": { uses: 1, why: "a doc comment's words, no outbound call" }
  // The CLI's chain transactions (launch, swap) go through scripts/devnet/tx.ts, against the RPC URL given to them.
}

/** Ways to open an outbound HTTP(S) connection from this code base: fetch, viem clients, jose JWKS, web-push, Typesense, node:http(s). */
const outbound =
  /\bfetch\s*\(|createRemoteJWKSet\s*\(|sendNotification\s*\(|\bfrom\s+"typesense"|makePublicClient\s*\(|createPublicClient\s*\(|createWalletClient\s*\(|\bhttps?\.(?:request|get)\s*\(|FetchHttpClient\.layer|new\s+WebSocket\s*\(/gu

describe("outbound requests review", () => {
  it("every outbound HTTP client in src/ and layers/ is a reviewed destination", () => {
    const { unreviewed, stale } = compareWithReview(["src", "layers"], outbound, reviewed)
    assert.deepStrictEqual(
      unreviewed,
      [],
      "review where these requests go (docs/SECURITY.md threat 5) and list them here"
    )
    assert.deepStrictEqual(stale, [], "these reviewed uses are gone: lower their count")
  })

  it("the check sees each kind of outbound call", () => {
    for (const code of [
      "await fetch(url)",
      "createRemoteJWKSet(new URL(u))",
      "webpush.sendNotification(s, p)",
      'import { Client } from "typesense"',
      "https.get(u)"
    ]) {
      assert.strictEqual(code.match(outbound)?.length, 1, code)
    }
  })
})

/**
 * A local HTTP server standing for an internal service an attacker would like the API to call; it records the path of
 * every request. It also serves the identity provider's JWKS: the one request the server makes to it by design, used
 * below as the event that closes the observation window.
 */
const JWKS_PATH = "/.well-known/jwks.json"
class Target extends Context.Service<Target, { readonly url: string; readonly paths: () => ReadonlyArray<string> }>()(
  "test/security/Target"
) {}
const TargetLive = Layer.effect(
  Target,
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: ReturnType<typeof createServer>; url: string; paths: () => ReadonlyArray<string> }>(
          (resolve) => {
            const paths: Array<string> = []
            const server = createServer((req, res) => {
              paths.push(req.url ?? "")
              if (req.url === JWKS_PATH)
                res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [] }))
              else res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
            })
            server.listen(0, "127.0.0.1", () => {
              const address = server.address() as { port: number }
              resolve({ server, url: `http://127.0.0.1:${address.port}`, paths: () => [...paths] })
            })
          }
        )
    ),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  ).pipe(Effect.map(({ paths, url }) => Target.of({ url, paths })))
)

const Server = Layer.unwrap(
  Target.useSync((target) =>
    AccountsServer({
      IDP_ISSUER: "https://idp.example.test",
      IDP_JWKS_URL: `${target.url}${JWKS_PATH}`,
      IDP_AUDIENCE: "fire-app"
    })
  )
).pipe(Layer.provideMerge(TargetLive))

/** An ID token of a key the JWKS does not have: verifying it makes the server fetch the JWKS, then refuse the token. */
const unknownKeyToken = [{ alg: "RS256", kid: "unknown" }, { sub: "x" }, "sig"]
  .map((part) => Buffer.from(typeof part === "string" ? part : JSON.stringify(part)).toString("base64url"))
  .join(".")

layer(Server, { timeout: "90 seconds", excludeTestServices: true })("user-supplied URLs", (it) => {
  it.effect(
    "URLs in profile and comment images and in the SIWE message are refused or ignored; nothing fetches them",
    () =>
      Effect.gen(function* () {
        const target = yield* Target
        const account = newAccount()
        const token = yield* tokenFor(account)
        // A sign-in message may name any URI and resources: the sign-in succeeds, and they are never requested.
        const other = newAccount()
        const signedIn = yield* signIn(other, { uri: `${target.url}/login`, resources: [`${target.url}/terms`] })
        assert.strictEqual(signedIn.status, 200, JSON.stringify(signedIn.body))
        assert.strictEqual(signedIn.body.user.walletAddress, other.address)
        for (const image of [
          `${target.url}/a.png`,
          `//127.0.0.1${target.url.slice(target.url.lastIndexOf(":"))}/a.png`,
          `/v1/images/../../${target.url}`
        ]) {
          const profile = yield* client("/v1/users/profile", {
            method: "PATCH",
            body: JSON.stringify({ image }),
            headers: { "content-type": "application/json", ...bearer(token) }
          })
          assert.deepStrictEqual([profile.status, profile.body.code], [400, "INVALID_BODY"], image)
          const comment = yield* postJson(
            "/v1/comments",
            { token: `0x${"00".repeat(19)}01`, text: "look", image },
            bearer(token)
          )
          assert.deepStrictEqual([comment.status, comment.body.code], [400, "INVALID_BODY"], image)
        }
        // The window ends on an event, not after a delay: work the requests above left running in the background (the
        // sign-in first, then six more round trips) would have reached the target by the time the server, asked last,
        // fetches the JWKS from it.
        const idp = yield* postJson("/v1/session/create", { idToken: unknownKeyToken })
        assert.strictEqual(idp.status, 401, JSON.stringify(idp.body))
        assert.deepStrictEqual(target.paths(), [JWKS_PATH], "the target saw only the JWKS fetch")
      })
  )
})
