import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { bearer, client, postJson } from "../support/http.ts"
import { AccountsServer } from "./support.ts"

const ISSUER = "https://idp.example.test"
const AUDIENCE = "fire-app"

type Keys = Awaited<ReturnType<typeof generateKeyPair>>

/** An identity provider of our own on localhost: a JWKS endpoint with one ES256 key, and the private key to sign. */
class TestIdp extends Context.Service<
  TestIdp,
  {
    readonly jwksUrl: string
    readonly sign: (claims: JWTPayload, options?: { readonly keys?: Keys; readonly kid?: string }) => Promise<string>
  }
>()("test/sessions/TestIdp") {
  static readonly layer = Layer.effect(
    TestIdp,
    Effect.acquireRelease(
      Effect.promise(async () => {
        const keys = await generateKeyPair("ES256")
        const jwk = { ...(await exportJWK(keys.publicKey)), kid: "key-1", alg: "ES256", use: "sig" }
        const server = createServer((request, response) => {
          response.writeHead(request.url === "/.well-known/jwks.json" ? 200 : 404, {
            "content-type": "application/json"
          })
          response.end(JSON.stringify({ keys: [jwk] }))
        })
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
        const sign = (claims: JWTPayload, options: { keys?: Keys; kid?: string } = {}) =>
          // Defaults first, so that a test's own iss/aud/exp win.
          new SignJWT({ iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600, ...claims })
            .setProtectedHeader({ alg: "ES256", kid: options.kid ?? "key-1" })
            .setIssuedAt()
            .sign((options.keys ?? keys).privateKey)
        const { port } = server.address() as AddressInfo
        return { server, jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`, sign }
      }),
      ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
    )
  )
}

const Server = Layer.unwrap(
  TestIdp.useSync((idp) => AccountsServer({ IDP_ISSUER: ISSUER, IDP_JWKS_URL: idp.jwksUrl, IDP_AUDIENCE: AUDIENCE }))
).pipe(Layer.provideMerge(TestIdp.layer))

const login = (idToken: string) => postJson("/v1/session/create", { idToken })

layer(Server, { timeout: "90 seconds", excludeTestServices: true })(
  "identity-provider login (jose, JWKS on localhost)",
  (it) => {
    it.effect("a valid ID token creates the user by its DID, then finds it again; the session works", () =>
      Effect.gen(function* () {
        const idp = yield* TestIdp
        const did = `did:example:${crypto.randomUUID()}`
        const first = yield* login(yield* Effect.promise(() => idp.sign({ sub: did })))
        assert.strictEqual(first.status, 200, JSON.stringify(first.body))
        assert.isNull(first.body.user.walletAddress)
        assert.include(first.headers.get("set-cookie") ?? "", "__Host-fire_session=")
        const second = yield* login(yield* Effect.promise(() => idp.sign({ sub: did })))
        assert.strictEqual(second.body.user.id, first.body.user.id)
        const current = yield* client("/v1/session/current", { headers: bearer(second.body.token) })
        assert.strictEqual(current.body.method, "idp")
        assert.strictEqual(current.body.user.idpDid, did)
      })
    )

    it.effect(
      "expired → 401 ID_TOKEN_EXPIRED; wrong audience, wrong issuer, unknown key, wrong key → 401 INVALID_ID_TOKEN",
      () =>
        Effect.gen(function* () {
          const idp = yield* TestIdp
          const sub = "did:example:someone"
          const expired = yield* Effect.promise(() => idp.sign({ sub, exp: Math.floor(Date.now() / 1000) - 60 }))
          const res = yield* login(expired)
          assert.strictEqual(res.status, 401)
          assert.strictEqual(res.body.code, "ID_TOKEN_EXPIRED")

          const otherKeys = yield* Effect.promise(() => generateKeyPair("ES256"))
          const cases = {
            "wrong audience": yield* Effect.promise(() => idp.sign({ sub, aud: "someone-else" })),
            "wrong issuer": yield* Effect.promise(() => idp.sign({ sub, iss: "https://evil.example" })),
            "unknown kid": yield* Effect.promise(() => idp.sign({ sub }, { keys: otherKeys, kid: "key-9" })),
            "right kid, wrong key": yield* Effect.promise(() => idp.sign({ sub }, { keys: otherKeys })),
            "HS256 with a guessable secret": yield* Effect.promise(() =>
              new SignJWT({ sub })
                .setProtectedHeader({ alg: "HS256", kid: "key-1" })
                .setIssuer(ISSUER)
                .setAudience(AUDIENCE)
                .setExpirationTime("5 minutes")
                .sign(new TextEncoder().encode("x".repeat(32)))
            ),
            "a wallet: DID": yield* Effect.promise(() =>
              idp.sign({ sub: "wallet:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" })
            ),
            "not a JWT": "hello"
          }
          for (const [name, token] of Object.entries(cases)) {
            const rejected = yield* login(token)
            assert.strictEqual(rejected.status, 401, name)
            assert.strictEqual(rejected.body.code, "INVALID_ID_TOKEN", name)
          }
        })
    )

    it.effect("bad body → 400 INVALID_BODY", () =>
      Effect.gen(function* () {
        for (const body of [{}, { idToken: "" }, { idToken: 42 }]) {
          const res = yield* login(body as never)
          assert.strictEqual(res.status, 400, JSON.stringify(body))
          assert.strictEqual(res.body.code, "INVALID_BODY")
        }
      })
    )
  }
)

layer(AccountsServer({ IDP_ISSUER: ISSUER, IDP_JWKS_URL: "http://127.0.0.1:9/jwks.json", IDP_AUDIENCE: AUDIENCE }), {
  timeout: "90 seconds",
  excludeTestServices: true
})("identity provider unreachable", (it) => {
  it.effect("keys cannot be fetched → 503 IDP_UNAVAILABLE (not the user's fault, so not a 401)", () =>
    Effect.gen(function* () {
      const keys = yield* Effect.promise(() => generateKeyPair("ES256"))
      const token = yield* Effect.promise(() =>
        new SignJWT({ sub: "did:example:x" })
          .setProtectedHeader({ alg: "ES256", kid: "k" })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime("5 minutes")
          .sign(keys.privateKey)
      )
      const res = yield* login(token)
      assert.strictEqual(res.status, 503)
      assert.strictEqual(res.body.code, "IDP_UNAVAILABLE")
    })
  )
})
