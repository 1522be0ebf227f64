import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createPublicClient, custom, type EIP1193Parameters, type PublicClient, serializeErc6492Signature } from "viem"
import { SignatureVerifier } from "../../src/client-api/accounts/sessions/SignatureVerifier.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { client, postJson } from "../support/http.ts"
import { AccountsServer, getNonce, newAccount, siweMessage } from "./support.ts"

/**
 * Issue 23 M3: a sign-in verify may cost an eth_call on the operator's RPC (ERC-1271, or the ERC-6492 validator
 * running the caller's factory). One nonce allowed unlimited attempts, nothing limited an IP or an address, the
 * validator ran with the node's gas cap, and signatures up to 8 KB were taken.
 */
const verify = (message: string, signature: string, headers: Record<string, string> = {}) =>
  postJson("/v1/session/wallet/verify", { message, signature }, headers)

layer(
  AccountsServer({ SIWE_NONCE_MAX_FAILURES: "3", SIGNIN_ADDRESS_RATE_LIMIT: "1000", SIGNIN_IP_RATE_LIMIT: "1000" }),
  {
    timeout: "60 seconds"
  }
)("failed signatures count against the nonce", (it) => {
  it.effect(
    "after 3 failed signatures the nonce is spent: even the right signature gets 401 INVALID_NONCE (exhausted)",
    () =>
      Effect.gen(function* () {
        const account = newAccount()
        const impostor = newAccount()
        const nonce = yield* getNonce(account.address)
        const message = siweMessage(account.address, nonce)
        const forged = yield* Effect.promise(() => impostor.signMessage({ message }))
        for (let i = 0; i < 3; i++) {
          const res = yield* verify(message, forged)
          assert.strictEqual(res.body.code, "INVALID_SIGNATURE", JSON.stringify(res.body))
        }
        const right = yield* verify(message, yield* Effect.promise(() => account.signMessage({ message })))
        assert.strictEqual(right.status, 401, JSON.stringify(right.body))
        assert.strictEqual(right.body.code, "INVALID_NONCE")
        assert.strictEqual(right.body.details.reason, "exhausted")
      })
  )

  it.effect(
    "signatures over 2,048 bytes and messages over 4,096 characters are refused before any check: 400 INVALID_BODY",
    () =>
      Effect.gen(function* () {
        const account = newAccount()
        const message = siweMessage(account.address, yield* getNonce(account.address))
        const long = yield* verify(message, `0x${"ab".repeat(2049)}`)
        assert.strictEqual(long.status, 400, JSON.stringify(long.body))
        assert.strictEqual(long.body.code, "INVALID_BODY")
        const huge = yield* verify(`${message}\n${"x".repeat(4096)}`, "0x00")
        assert.strictEqual(huge.status, 400)
        assert.strictEqual(huge.body.code, "INVALID_BODY")
      })
  )
})

layer(AccountsServer({ SIGNIN_IP_RATE_LIMIT: "1000" }), { timeout: "60 seconds" })(
  "anonymous rows expire (issue 23 L4)",
  (it) => {
    it.effect("a wallet-state report purges anonymous reports older than 30 days, newer ones stay", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO wallet_states (status, created_at) VALUES ('connected', now() - interval '31 days')`
        yield* sql`INSERT INTO wallet_states (status, created_at) VALUES ('connected', now() - interval '29 days')`
        const state = yield* postJson("/v1/session/wallet-state", { status: "connected" })
        assert.strictEqual(state.status, 200, JSON.stringify(state.body))
        const ages = yield* sql<{
          old: boolean
        }>`SELECT created_at < now() - interval '30 days' AS old FROM wallet_states WHERE user_id IS NULL`
        assert.deepStrictEqual(ages.map((r) => r.old).sort(), [false, false])
      })
    )
  }
)

layer(AccountsServer({ SIGNIN_ADDRESS_RATE_LIMIT: "2", SIGNIN_IP_RATE_LIMIT: "1000" }), { timeout: "60 seconds" })(
  "per-address limit",
  (it) => {
    it.effect("verifies for one address past SIGNIN_ADDRESS_RATE_LIMIT get 429 RATE_LIMITED, whatever the nonce", () =>
      Effect.gen(function* () {
        const account = newAccount()
        const impostor = newAccount()
        const codes: Array<string> = []
        for (let i = 0; i < 3; i++) {
          const message = siweMessage(account.address, yield* getNonce(account.address))
          codes.push((yield* verify(message, yield* Effect.promise(() => impostor.signMessage({ message })))).body.code)
        }
        assert.deepStrictEqual(codes, ["INVALID_SIGNATURE", "INVALID_SIGNATURE", "RATE_LIMITED"])
        // Another address is not affected.
        const other = newAccount()
        const message = siweMessage(other.address, yield* getNonce(other.address))
        assert.strictEqual(
          (yield* verify(message, yield* Effect.promise(() => other.signMessage({ message })))).status,
          200
        )
      })
    )
  }
)

layer(AccountsServer({ SIGNIN_IP_RATE_LIMIT: "3", SIGNIN_ADDRESS_RATE_LIMIT: "1000" }), { timeout: "60 seconds" })(
  "per-IP limit",
  (it) => {
    it.effect(
      "sign-in requests from one IP past SIGNIN_IP_RATE_LIMIT get 429 RATE_LIMITED (nonce and verify alike)",
      () =>
        Effect.gen(function* () {
          const statuses: Array<number> = []
          for (let i = 0; i < 4; i++)
            statuses.push((yield* client(`/v1/session/wallet/nonce?address=${newAccount().address}`)).status)
          assert.deepStrictEqual(statuses, [200, 200, 200, 429])
          const refused = yield* verify("x", "0x00")
          assert.strictEqual(refused.status, 429)
          assert.strictEqual(refused.body.code, "RATE_LIMITED")
          // The anonymous wallet-state report writes a row per call: the same window (issue 23 L4).
          const state = yield* postJson("/v1/session/wallet-state", {
            status: "connected",
            address: newAccount().address,
            chainId: 31337
          })
          assert.strictEqual(state.status, 429, JSON.stringify(state.body))
        })
    )
  }
)

// The server's clock must be real here (excludeTestServices): the burst refills with time.
layer(AccountsServer({ SIGNIN_IP_RATE_LIMIT: "100", SIGNIN_IP_RATE_BURST: "3" }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("per-IP burst", (it) => {
  it.effect(
    "past SIGNIN_IP_RATE_BURST requests at once an IP gets 429 RATE_LIMITED while its window (100) has room",
    () =>
      Effect.gen(function* () {
        const nonce = () => client(`/v1/session/wallet/nonce?address=${newAccount().address}`)
        // Four at once; 100 per 60 s refills a request's worth in 600 ms.
        const answers = yield* Effect.all([nonce(), nonce(), nonce(), nonce()], { concurrency: "unbounded" })
        // Before the burst allowance: four 200s (and 120 nonce rows at once under the default limit).
        assert.deepStrictEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 429])
        const refused = answers.find((a) => a.status === 429)!
        assert.strictEqual(refused.body.code, "RATE_LIMITED")
        assert.match(refused.body.message, /^More than 3 sign-in requests at once from one address/)
        // `retryAfterSeconds` later it passes again.
        assert.strictEqual(refused.body.details.retryAfterSeconds, 1)
        yield* Effect.sleep("1 second")
        assert.strictEqual((yield* nonce()).status, 200)
      })
  )
})

layer(AnvilChain.layerWith({ state: "empty" }), { timeout: "60 seconds", excludeTestServices: true })(
  "gas cap",
  (it) => {
    it.effect(
      "every verification eth_call carries a gas limit of at most SIGNATURE_VERIFY_GAS (the ERC-6492 factory call included)",
      () =>
        Effect.gen(function* () {
          const chain = yield* AnvilChain
          const calls: Array<EIP1193Parameters> = []
          const recording = createPublicClient({
            chain: chain.publicClient.chain,
            transport: custom({
              request: (args) => {
                calls.push(args as EIP1193Parameters)
                return chain.publicClient.request(args as never)
              }
            })
          }) as PublicClient
          const verifier = yield* SignatureVerifier.pipe(
            Effect.provide(SignatureVerifier.layerWith(recording, 1_500_000n))
          )
          const wallet = newAccount()
          const factory = newAccount().address
          // An undeployed "smart wallet" whose factory is an attacker's: the validator would run it.
          const signature = serializeErc6492Signature({ address: factory, data: "0xdeadbeef", signature: "0x1234" })
          const valid = yield* verifier.verify({ address: wallet.address, message: "hello", signature })
          assert.isFalse(valid)
          const ethCalls = calls.filter((c) => c.method === "eth_call")
          assert.isAbove(ethCalls.length, 0)
          for (const call of ethCalls) {
            const gas = (call.params as [{ gas?: string }])[0].gas
            assert.isDefined(gas, JSON.stringify(call))
            assert.isAtMost(Number(BigInt(gas!)), 1_500_000)
          }
        })
    )
  }
)
