import { ConfigProvider, Context, Effect, Layer } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { type LocalAccount, generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import { client, postJson } from "../support/http.ts"
import { TestServices } from "../support/TestServer.ts"

/**
 * Test plumbing for the account features: the client service over a fresh database and a fresh anvil (TestServices;
 * the signature verifier asks that anvil, as production asks its chain), feature config given through a
 * ConfigProvider, a temporary DATA_DIR, and a wallet sign-in made the way a client does it: viem's SIWE helper and a
 * private key.
 */

/** A DATA_DIR of its own for each test file (images land there), removed afterwards. */
class TempDataDir extends Context.Service<TempDataDir, string>()("test/sessions/TempDataDir") {}
const TempDataDirLive = Layer.effect(
  TempDataDir,
  Effect.acquireRelease(
    Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-accounts-"))),
    (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
  )
)

/** A test-only JWT key, so tests can forge tokens (expired, wrong subject) the way an attacker could not. */
export const TEST_JWT_SECRET = "test-secret-0123456789abcdef0123456789abcdef"

/** The client service with the account features, a real anvil and `env` as feature configuration. */
export const AccountsServer = (env: Record<string, string> = {}) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const dataDir = yield* TempDataDir
      return TestServices(["client"], { dataDir }).pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ JWT_SECRET: TEST_JWT_SECRET, ...env })))
      )
    })
  ).pipe(Layer.provide(TempDataDirLive))

export const newAccount = (): LocalAccount => privateKeyToAccount(generatePrivateKey())

/** The EIP-4361 message a dapp would build for `address` with `nonce` (viem's helper, not ours). */
export const siweMessage = (
  address: `0x${string}`,
  nonce: string,
  extra: Partial<Parameters<typeof createSiweMessage>[0]> = {}
) =>
  createSiweMessage({
    domain: "localhost:3000",
    address,
    statement: "Sign in to Fire",
    uri: "http://localhost:3000",
    version: "1",
    chainId: 31337,
    nonce,
    issuedAt: new Date(),
    ...extra
  })

export const getNonce = (address: string) =>
  Effect.map(client(`/v1/session/wallet/nonce?address=${address}`), (res) => {
    if (res.status !== 200) throw new Error(`nonce: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.nonce as string
  })

/** The whole wallet sign-in: nonce, message, personal_sign, verify. Returns the verify response. */
export const signIn = (account: LocalAccount, extra: Partial<Parameters<typeof createSiweMessage>[0]> = {}) =>
  Effect.gen(function* () {
    const nonce = yield* getNonce(account.address)
    const message = siweMessage(account.address, nonce, extra)
    const signature = yield* Effect.promise(() => account.signMessage({ message }))
    return yield* postJson("/v1/session/wallet/verify", { message, signature })
  })

/** Signs in and returns the token (fails the test otherwise). */
export const tokenFor = (account: LocalAccount) =>
  Effect.map(signIn(account), (res) => {
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.token as string
  })
