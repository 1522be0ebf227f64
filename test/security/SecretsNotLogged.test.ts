import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Logger, References } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { createPublicClient, http } from "viem"
import { classifyRpcError } from "../../src/indexer/fetch/RpcError.ts"
import { redactedErrorText } from "../../src/platform/RedactUrl.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { startServiceProcess } from "../support/ServiceProcess.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"
import { bearer, postJson } from "../support/http.ts"
import { newAccount, signIn } from "../sessions/support.ts"

/**
 * Secrets never reach the logs (docs/SECURITY.md, threat "secrets in logs"): the client and exchange services run
 * with every log line captured at the lowest level (Trace, below LOG_LEVEL=Debug) and the access log on, a full
 * session flow runs (SIWE sign-in, Bearer and cookie calls, refresh, X tokens stored, forged and bogus credentials,
 * partner keys on the quote routes, logout), and then no captured line may contain the JWT key, a session token or its
 * signature, the X OAuth tokens, the X encryption key, the partner key configured in QUOTE_API_KEYS (used on a quote
 * route) or a guessed partner key.
 */
const JWT_SECRET = "jwt-secret-that-must-never-be-logged-0123456789"
const X_KEY_HEX = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7"
const X_ACCESS = "xat-never-logged-access-token-7f3a9c"
const X_REFRESH = "xrt-never-logged-refresh-token-91b2d4"
const API_KEY = "fk_live_never_logged_partner_key_5d8e"
const WRONG_API_KEY = "fk_live_never_logged_guessed_key_0c1f"

class Captured extends Context.Service<Captured, Array<string>>()("test/security/Captured") {}

const Stack = Layer.unwrap(
  Effect.gen(function* () {
    const lines = yield* Captured
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-secrets-"))),
      (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
    )
    // JSON lines as LOG_FORMAT=json would print them (message, cause with its stack, annotations, spans).
    const capture = Logger.map(Logger.formatJson, (line) => void lines.push(line))
    return TestServices(["client", "exchange"], { dataDir, accessLog: true }).pipe(
      Layer.provide(
        ConfigProvider.layer(
          ConfigProvider.fromEnvRecord({
            JWT_SECRET,
            X_AUTH_ENCRYPTION_KEY: X_KEY_HEX,
            QUOTE_API_KEYS: `acme:${API_KEY}`
          })
        )
      ),
      Layer.provide(Layer.mergeAll(Logger.layer([capture]), Layer.succeed(References.MinimumLogLevel, "Trace")))
    )
  })
).pipe(Layer.provideMerge(Layer.sync(Captured, () => [] as Array<string>)))

const client = (path: string, init?: RequestInit) =>
  Effect.flatMap(baseUrl("client"), (base) => fetchJson(`${base}${path}`, init))

layer(Stack, { timeout: "60 seconds", excludeTestServices: true })("secrets never logged", (it) => {
  it.effect("a full session flow at the lowest log level leaves no secret in any log line", () =>
    Effect.gen(function* () {
      const account = newAccount()
      const verified = yield* signIn(account)
      assert.strictEqual(verified.status, 200)
      const token = verified.body.token as string
      assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(token) })).status, 200)
      assert.strictEqual(
        (yield* client("/v1/users/me", { headers: { cookie: `__Host-fire_session=${token}` } })).status,
        200
      )
      const stored = yield* postJson(
        "/v1/x-auth/store-tokens",
        { accessToken: X_ACCESS, refreshToken: X_REFRESH },
        bearer(token)
      )
      assert.strictEqual(stored.status, 200, JSON.stringify(stored.body))
      const refreshed = yield* client("/v1/session/refresh", { method: "POST", headers: bearer(token) })
      assert.strictEqual(refreshed.status, 200)
      const fresh = refreshed.body.token as string
      // Forged (right shape, wrong key) and garbage credentials, and an API key header: refused or ignored, not logged.
      const [head, payload] = token.split(".")
      const forged = `${head}.${payload}.c2lnbmF0dXJlLWZyb20tYW5vdGhlci1rZXk`
      assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(forged) })).status, 401)
      assert.strictEqual(
        (yield* client("/v1/users/me", { headers: { cookie: `__Host-fire_session=${forged}` } })).status,
        401
      )
      const exchange = yield* Effect.flatMap(baseUrl("exchange"), (base) =>
        fetchJson(`${base}/api/v1/tokens/bluechip`, {
          headers: { "x-api-key": API_KEY, authorization: `Bearer ${fresh}` }
        })
      )
      assert.strictEqual(exchange.status, 200)
      // The partner key configured in QUOTE_API_KEYS (hashed at start) on a quote route, and a guessed one.
      const quoteTokens = (key: string) =>
        Effect.flatMap(baseUrl("exchange"), (base) =>
          fetchJson(`${base}/api/v1/quote/tokens?chainId=31337`, { headers: { "x-api-key": key } })
        )
      assert.strictEqual((yield* quoteTokens(API_KEY)).status, 200)
      assert.strictEqual((yield* quoteTokens(WRONG_API_KEY)).status, 401)
      assert.strictEqual((yield* client("/v1/session/logout", { method: "POST", headers: bearer(fresh) })).status, 204)
      assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(fresh) })).status, 401)

      const lines = yield* Captured
      // The capture works: the access log saw these requests (else the test would pass vacuously).
      assert.isTrue(
        lines.some((l) => l.includes("/v1/x-auth/store-tokens")),
        "access log lines are captured"
      )
      assert.isTrue(
        lines.some((l) => l.includes("/api/v1/tokens/bluechip")),
        "exchange lines are captured"
      )
      const secrets = {
        JWT_SECRET,
        "session token": token,
        "session token signature": token.split(".")[2]!,
        "refreshed token": fresh,
        "forged token": forged,
        "X access token": X_ACCESS,
        "X refresh token": X_REFRESH,
        "X encryption key": X_KEY_HEX,
        "partner key": API_KEY,
        "guessed partner key": WRONG_API_KEY
      }
      const leaks = Object.entries(secrets).flatMap(([name, secret]) =>
        lines.filter((l) => l.includes(secret)).map((l) => `${name}: ${l.slice(0, 300)}`)
      )
      assert.deepStrictEqual(leaks, [])
    })
  )
})

/**
 * The RPC URL carries the provider's key (issue 23 L1): the start-up lines print it redacted, and a viem error, whose
 * texts name the request URL, is logged and classified without it.
 */
const RPC_KEY = "rpc-provider-key-never-logged-4b7e"

layer(Layer.mergeAll(TestDatabase, AnvilChain.layer), { timeout: "120 seconds", excludeTestServices: true })(
  "the RPC URL is never logged",
  (it) => {
    it.effect("the app's start-up lines show the RPC URL without its key", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const proc = yield* startServiceProcess(["client"], { RPC_URL: `${chain.rpcUrl}/?apikey=${RPC_KEY}` })
        const output = proc.output()
        assert.include(output, "chain ", "the chain line is printed")
        assert.notInclude(output, RPC_KEY)
      })
    )

    it.effect("a failed RPC call: viem's error names the URL, the logged and classified texts do not", () =>
      Effect.gen(function* () {
        const dead = createPublicClient({
          transport: http(`http://127.0.0.1:9/v2/${RPC_KEY}`, { retryCount: 0, timeout: 2000 })
        })
        const error = yield* Effect.promise(() =>
          dead.getBlockNumber().then(
            () => undefined,
            (e: unknown) => e
          )
        )
        assert.include(
          JSON.stringify({ message: (error as Error).message }),
          RPC_KEY,
          "viem's own text carries the key"
        )
        assert.notInclude(redactedErrorText(error), RPC_KEY)
        assert.include(redactedErrorText(error), "http://127.0.0.1:9/…")
        assert.notInclude(classifyRpcError("eth_blockNumber", error).message, RPC_KEY)
      })
    )
  }
)
