import { assert, layer } from "@effect/vitest"
import { Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseAbi,
  serializeErc6492Signature,
  toHex
} from "viem"
import { SignatureVerifier } from "../../src/client-api/accounts/sessions/SignatureVerifier.ts"
import { parseSiweMessage } from "../../src/client-api/accounts/sessions/SiweMessage.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { ownerWalletArtifacts } from "../fixtures/ownerWallet.ts"
import { readVectors } from "./siweVectors.ts"
import { postJson } from "../support/http.ts"
import { AccountsServer, getNonce, newAccount, siweMessage } from "./support.ts"

const factoryAbi = parseAbi([
  "function deploy(address owner, bytes32 salt) returns (address)",
  "function predict(address owner, bytes32 salt) view returns (address)"
])

/** Deploys a wallet factory from anvil's first (funded, unlocked) account. */
const deployFactory = AnvilChain.use((chain) =>
  Effect.promise(() => chain.sender.deploy(chain.accounts[0]!, ownerWalletArtifacts().factory))
)

const predict = (factory: Address, owner: Address, salt: Hex) =>
  AnvilChain.use((chain) =>
    Effect.promise(() =>
      chain.publicClient.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: "predict",
        args: [owner, salt]
      })
    )
  )

layer(AccountsServer(), { timeout: "120 seconds", excludeTestServices: true })(
  "smart-wallet sign-in on the devnet",
  (it) => {
    it.effect("ERC-1271: a wallet contract deployed on anvil signs in with its owner's signature", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const factory = yield* deployFactory
        const owner = newAccount()
        const salt = keccak256(toHex("deployed"))
        const wallet = getAddress(yield* predict(factory, owner.address, salt))
        yield* Effect.promise(() =>
          chain.sender.write(chain.accounts[0]!, factory, factoryAbi, "deploy", [owner.address, salt])
        )
        assert.isAbove((yield* Effect.promise(() => chain.publicClient.getCode({ address: wallet }))!)?.length ?? 0, 2)

        const message = siweMessage(wallet, yield* getNonce(wallet))
        const signature = yield* Effect.promise(() => owner.signMessage({ message }))
        const res = yield* postJson("/v1/session/wallet/verify", { message, signature })
        assert.strictEqual(res.status, 200, JSON.stringify(res.body))
        assert.strictEqual(res.body.user.walletAddress, wallet)

        // Someone else's key does not speak for the wallet.
        const intruder = newAccount()
        const other = siweMessage(wallet, yield* getNonce(wallet))
        const forged = yield* postJson("/v1/session/wallet/verify", {
          message: other,
          signature: yield* Effect.promise(() => intruder.signMessage({ message: other }))
        })
        assert.strictEqual(forged.status, 401)
        assert.strictEqual(forged.body.code, "INVALID_SIGNATURE")
      })
    )

    it.effect(
      "ERC-6492: a wallet that is not deployed yet signs in with a factory-wrapped signature, and stays undeployed",
      () =>
        Effect.gen(function* () {
          const chain = yield* AnvilChain
          const factory = yield* deployFactory
          const owner = newAccount()
          const salt = keccak256(toHex("counterfactual"))
          const wallet = getAddress(yield* predict(factory, owner.address, salt))
          const message = siweMessage(wallet, yield* getNonce(wallet))
          const signature = serializeErc6492Signature({
            address: factory,
            data: encodeFunctionData({ abi: factoryAbi, functionName: "deploy", args: [owner.address, salt] }),
            signature: yield* Effect.promise(() => owner.signMessage({ message }))
          })
          const res = yield* postJson("/v1/session/wallet/verify", { message, signature })
          assert.strictEqual(res.status, 200, JSON.stringify(res.body))
          assert.strictEqual(res.body.user.walletAddress, wallet)
          assert.isUndefined(yield* Effect.promise(() => chain.publicClient.getCode({ address: wallet })))
        })
    )

    it.effect("SIWE eip1271.json vectors (mainnet Argent and Loopring wallets): absent here, so clearly rejected", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const sql = yield* SqlClient.SqlClient
        const verifier = yield* SignatureVerifier
        const vectors = readVectors<{ message: string; signature: Hex }>("eip1271.json")
        assert.strictEqual(Object.keys(vectors).length, 2)
        for (const [name, { message, signature }] of Object.entries(vectors)) {
          const fields = Result.getOrThrow(parseSiweMessage(message))
          const address = fields.address as Address
          assert.isUndefined(
            yield* Effect.promise(() => chain.publicClient.getCode({ address })),
            `${name}: no contract on the devnet`
          )
          // The verifier answers "not valid" — a verdict, not an error — when no contract can vouch for the signature.
          assert.isFalse(yield* verifier.verify({ address, message, signature }), name)
          // And the route says why: INVALID_SIGNATURE, naming the address and the ERC-1271 check.
          yield* sql`INSERT INTO wallet_nonces (nonce, address, expires_at) VALUES (${fields.nonce}, ${address}, now() + interval '5 minutes')`
          const res = yield* postJson("/v1/session/wallet/verify", { message, signature })
          assert.strictEqual(res.status, 401, name)
          assert.strictEqual(res.body.code, "INVALID_SIGNATURE")
          assert.include(res.body.message, address)
          assert.include(res.body.message, "ERC-1271")
        }
      })
    )
  }
)
