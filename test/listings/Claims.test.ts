import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  type Address,
  encodeFunctionData,
  getAddress,
  keccak256,
  type LocalAccount,
  parseAbi,
  parseEventLogs,
  toHex
} from "viem"
import { FireLaunchAbi } from "../../contracts/generated/index.ts"
import { claimTypedData } from "../../src/client-api/listings/claims/ClaimTypedData.ts"
import { ownerWalletArtifacts } from "../fixtures/ownerWallet.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { getNonce, newAccount, siweMessage } from "../sessions/support.ts"
import { authed, fund, ignite, indexed, ListingsServer, picture, postJson, tokenFor, uploadTo } from "./support.ts"

const admin = newAccount()
const now = () => Math.floor(Date.now() / 1000)

/** The claimant's signature, made as a wallet would: viem signTypedData over the Claim typed data. */
const sign = (signer: LocalAccount, input: { token: Address; wallet?: Address; userId: string; signedAt: number }) =>
  AnvilChain.use((chain) =>
    Effect.promise(() =>
      signer.signTypedData(
        claimTypedData({
          chainId: chain.chainId,
          fireLaunch: chain.deployments.launchpad!.fireLaunch,
          message: {
            token: input.token,
            wallet: input.wallet ?? signer.address,
            userId: input.userId,
            signedAt: BigInt(input.signedAt)
          }
        })
      )
    )
  )

const me = (jwt: string) => Effect.map(authed(jwt, "GET", "/v1/users/me"), (r) => r.body.id as string)

/** A fresh creator with a session and an unclaimed token it ignited. */
const creatorWithToken = (symbol: string) =>
  Effect.gen(function* () {
    const creator = newAccount()
    yield* fund(creator.address)
    const jwt = yield* tokenFor(creator)
    const { token } = yield* ignite(creator, `Claim ${symbol}`, symbol)
    return { creator, jwt, token, userId: yield* me(jwt) }
  })

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  assert.strictEqual(res.status, status, JSON.stringify(res.body))
  assert.strictEqual(res.body.code, code)
}

const walletAbi = parseAbi(["function execute(address target, bytes data) returns (bytes)"])
const factoryAbi = parseAbi([
  "function deploy(address owner, bytes32 salt) returns (address)",
  "function predict(address owner, bytes32 salt) view returns (address)"
])

// The race below sends 50 claims of one user at once: above CLAIM_RATE_LIMIT (10 per 60 s), which SignInAbuse-style limits test.
layer(ListingsServer(admin.address, { CLAIM_RATE_LIMIT: "1000" }), {
  timeout: "180 seconds",
  excludeTestServices: true
})("creator claims (EIP-712)", (it) => {
  it.effect(
    "done-when: a creator who ignited with viem signs the published typed data, claims, and the listing shows their profile; then the claim image",
    () =>
      Effect.gen(function* () {
        const { creator, jwt, token, userId } = yield* creatorWithToken("CLMA")
        const typed = yield* authed(jwt, "GET", `/v1/tokens/${token}/claim/typed-data`)
        assert.strictEqual(typed.status, 200, JSON.stringify(typed.body))
        assert.deepStrictEqual(
          typed.body.types.Claim.map((f: any) => `${f.type} ${f.name}`),
          ["address token", "address wallet", "string userId", "uint256 signedAt"]
        )
        assert.strictEqual(typed.body.message.userId, userId)
        const signature = yield* Effect.promise(() =>
          creator.signTypedData({
            ...typed.body,
            message: { ...typed.body.message, signedAt: BigInt(typed.body.message.signedAt) }
          })
        )
        const claimed = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
          wallet: creator.address,
          signedAt: Number(typed.body.message.signedAt),
          signature
        })
        assert.strictEqual(claimed.status, 201, JSON.stringify(claimed.body))
        assert.strictEqual(claimed.body.creatorId, userId)
        assert.strictEqual(claimed.body.name, "Claim CLMA") // read on-chain
        assert.strictEqual(claimed.body.symbol, "CLMA")
        assert.strictEqual(claimed.body.source, "claim")

        // "Your claim succeeded", written in the claim's transaction.
        const notes = (yield* authed(jwt, "GET", "/v1/notifications")).body.items
        assert.deepStrictEqual(
          notes.map((n: any) => [n.kind, n.payload.token, n.payload.name]),
          [["CLAIM_SUCCEEDED", token.toLowerCase(), "Claim CLMA"]]
        )

        const page = (yield* indexed(token, (b) => b.claimed)).body
        assert.strictEqual(page.creator.id, userId)
        assert.strictEqual(page.creator.walletAddress, creator.address)
        assert.isNull(page.metadata.image)

        // Claim image: only the claimant; IMAGE_REQUIRED without a file.
        expectError(yield* uploadTo(jwt, `/v1/tokens/${token}/claim/image`, undefined), 400, "IMAGE_REQUIRED")
        expectError(yield* client_post_empty(jwt, `/v1/tokens/${token}/claim/image`), 400, "IMAGE_REQUIRED")
        const stranger = yield* tokenFor(newAccount())
        expectError(yield* uploadTo(stranger, `/v1/tokens/${token}/claim/image`, yield* picture), 403, "NOT_CREATOR")
        const imaged = yield* uploadTo(jwt, `/v1/tokens/${token}/claim/image`, yield* picture)
        assert.strictEqual(imaged.status, 200, JSON.stringify(imaged.body))
        assert.match(imaged.body.image, /^\/v1\/images\/[0-9a-f]{64}\.webp$/)
        assert.strictEqual(
          (yield* indexed(token, (b) => b.metadata?.image !== null)).body.metadata.image,
          imaged.body.image
        )
        const icons = yield* postJson("/v1/tokens/batch/images", {
          addresses: [token.toLowerCase(), newAccount().address]
        })
        assert.strictEqual(icons.body.images[getAddress(token)], imaged.body.image)

        // And a second claim is refused.
        const again = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
          wallet: creator.address,
          signedAt: now(),
          signature: yield* sign(creator, { token, userId, signedAt: now() })
        })
        expectError(again, 409, "ALREADY_CLAIMED")
      })
  )

  it.effect("SIGNATURE_EXPIRED: signed more than 3600 s ago, or dated in the future", () =>
    Effect.gen(function* () {
      const { creator, jwt, token, userId } = yield* creatorWithToken("CLMB")
      const old = now() - 3601
      const expired = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
        wallet: creator.address,
        signedAt: old,
        signature: yield* sign(creator, { token, userId, signedAt: old })
      })
      expectError(expired, 400, "SIGNATURE_EXPIRED")
      assert.strictEqual(expired.body.details.reason, "expired")
      const future = now() + 600
      const early = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
        wallet: creator.address,
        signedAt: future,
        signature: yield* sign(creator, { token, userId, signedAt: future })
      })
      expectError(early, 400, "SIGNATURE_EXPIRED")
      assert.strictEqual(early.body.details.reason, "future")
      // Just inside the window it works.
      const recent = now() - 3500
      const ok = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
        wallet: creator.address,
        signedAt: recent,
        signature: yield* sign(creator, { token, userId, signedAt: recent })
      })
      assert.strictEqual(ok.status, 201, JSON.stringify(ok.body))
    })
  )

  it.effect(
    "NOT_CREATOR when the caller's own wallet signed (even with the creator in `wallet`); INVALID_SIGNATURE when the signature names nobody",
    () =>
      Effect.gen(function* () {
        const { creator, jwt, token, userId } = yield* creatorWithToken("CLMC")
        const outsider = newAccount()
        const outsiderJwt = yield* tokenFor(outsider)
        const outsiderId = yield* me(outsiderJwt)
        const t = now()
        const claim = (as: string, body: Record<string, unknown>) =>
          authed(as, "POST", `/v1/tokens/${token}/claim`, body)

        // The outsider signs for itself, validly: it is just not the creator.
        const notCreator = yield* claim(outsiderJwt, {
          wallet: outsider.address,
          signedAt: t,
          signature: yield* sign(outsider, { token, userId: outsiderId, signedAt: t })
        })
        expectError(notCreator, 403, "NOT_CREATOR")
        assert.strictEqual(notCreator.body.details.creator, creator.address)
        assert.strictEqual(notCreator.body.details.signer, outsider.address)
        // The creator's address in `wallet`, signed with the outsider's key: the recovered signer is not the creator.
        const posing = yield* claim(outsiderJwt, {
          wallet: creator.address,
          signedAt: t,
          signature: yield* sign(outsider, { token, wallet: creator.address, userId: outsiderId, signedAt: t })
        })
        expectError(posing, 403, "NOT_CREATOR")
        assert.deepStrictEqual(posing.body.details, {
          signer: outsider.address,
          creator: creator.address,
          wallet: creator.address
        })
        // The creator's signature, made for the creator's account, replayed from another session; and a different
        // signedAt than the one signed. ECDSA recovers an unrelated address from a signature over other data, which
        // names nobody: the signature does not match this typed data → INVALID_SIGNATURE (not NOT_CREATOR).
        const creatorSig = yield* sign(creator, { token, userId, signedAt: t })
        for (const [as, signedAt] of [
          [outsiderJwt, t],
          [jwt, t - 1]
        ] as const) {
          expectError(
            yield* claim(as, { wallet: creator.address, signedAt, signature: creatorSig }),
            400,
            "INVALID_SIGNATURE"
          )
        }
        // The creator's own key, but naming another wallet: the signer is the creator, `wallet` is not → INVALID_SIGNATURE.
        expectError(
          yield* claim(outsiderJwt, {
            wallet: outsider.address,
            signedAt: t,
            signature: yield* sign(creator, { token, wallet: outsider.address, userId: outsiderId, signedAt: t })
          }),
          400,
          "INVALID_SIGNATURE"
        )
        // Malformed or unrecoverable signatures: not hex, wrong length, v not 27/28, r = s = 0.
        for (const signature of [
          "0x",
          "0x1234",
          "not-hex",
          `0x${"ab".repeat(65)}`,
          `${creatorSig}00`.slice(0, 133),
          `0x${"00".repeat(64)}1b`,
          `${creatorSig}00`
        ]) {
          expectError(yield* claim(jwt, { wallet: creator.address, signedAt: t, signature }), 400, "INVALID_SIGNATURE")
        }
        // None of that claimed anything; the creator still can.
        assert.strictEqual(
          (yield* claim(jwt, { wallet: creator.address, signedAt: t, signature: creatorSig })).status,
          201
        )
      })
  )

  it.effect("TOKEN_NOT_FOUND, malformed address, UNAUTHORIZED, and a body that is not a claim", () =>
    Effect.gen(function* () {
      const jwt = yield* tokenFor(newAccount())
      const body = { wallet: newAccount().address, signedAt: now(), signature: "0x00" }
      expectError(yield* authed(jwt, "POST", `/v1/tokens/${newAccount().address}/claim`, body), 404, "TOKEN_NOT_FOUND")
      expectError(yield* authed(jwt, "POST", "/v1/tokens/0x1234/claim", body), 400, "INVALID_PATH")
      expectError(yield* postJson(`/v1/tokens/${newAccount().address}/claim`, body), 401, "UNAUTHORIZED")
      expectError(
        yield* authed(jwt, "POST", `/v1/tokens/${newAccount().address}/claim`, { wallet: "me" }),
        400,
        "INVALID_BODY"
      )
      // The seeded non-canonical launch (OFFG) is a FireLaunch token, but not a listing.
      const offGrid = yield* AnvilChain.use((chain) =>
        Effect.succeed(chain.deployments.launches.find((l) => !l.canonical)!)
      )
      expectError(yield* authed(jwt, "POST", `/v1/tokens/${offGrid.token}/claim`, body), 404, "TOKEN_NOT_FOUND")
    })
  )

  it.effect("TOKEN_DELETED: a token an admin removed cannot be claimed", () =>
    Effect.gen(function* () {
      const { creator, jwt, token, userId } = yield* creatorWithToken("CLMD")
      const adminJwt = yield* tokenFor(admin)
      yield* indexed(token)
      const hidden = yield* authed(adminJwt, "POST", `/v1/tokens/admin/${token}/hide`, { reason: "test" })
      assert.strictEqual(hidden.status, 200, JSON.stringify(hidden.body))
      assert.isTrue(hidden.body.changed)
      const t = now()
      const res = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
        wallet: creator.address,
        signedAt: t,
        signature: yield* sign(creator, { token, userId, signedAt: t })
      })
      expectError(res, 410, "TOKEN_DELETED")
      // Nor submitted by a launch.
      const launch = (yield* authed(jwt, "POST", "/v1/launch", {
        name: "Deleted",
        symbol: "CLMD",
        category: "other",
        chainId: 31337
      })).body.id
      assert.strictEqual((yield* uploadTo(jwt, `/v1/launch/${launch}/image`, yield* picture)).status, 200)
      expectError(
        yield* authed(jwt, "POST", `/v1/launch/${launch}/submit`, { tokenAddress: token }),
        410,
        "TOKEN_DELETED"
      )
      assert.strictEqual((yield* authed(jwt, "GET", `/v1/launch/${launch}`)).body.status, "IMAGE_UPLOADED")
    })
  )

  it.effect("50 concurrent claims of one token: exactly one succeeds, the others get ALREADY_CLAIMED", () =>
    Effect.gen(function* () {
      const { creator, jwt, token, userId } = yield* creatorWithToken("RACE")
      const t = now()
      const bodies = yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => t - i),
        (signedAt) =>
          Effect.map(sign(creator, { token, userId, signedAt }), (signature) => ({
            wallet: creator.address,
            signedAt,
            signature
          }))
      )
      const results = yield* Effect.forEach(bodies, (body) => authed(jwt, "POST", `/v1/tokens/${token}/claim`, body), {
        concurrency: "unbounded"
      })
      const statuses = results.map((r) => r.status)
      assert.strictEqual(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses))
      assert.isTrue(
        results.every((r) => r.status === 201 || (r.status === 409 && r.body.code === "ALREADY_CLAIMED")),
        JSON.stringify(statuses)
      )
      // Losers rolled back: one notification.
      assert.strictEqual((yield* authed(jwt, "GET", "/v1/notifications")).body.items.length, 1)
    })
  )

  it.effect("ERC-1271: a smart-wallet creator (ignited through the wallet) claims with its owner's signature", () =>
    Effect.gen(function* () {
      const chain = yield* AnvilChain
      const owner = newAccount()
      yield* fund(owner.address)
      const factory = yield* Effect.promise(() =>
        chain.sender.deploy(chain.accounts[0]!, ownerWalletArtifacts().factory)
      )
      const salt = keccak256(toHex("claims"))
      const wallet = getAddress(
        yield* Effect.promise(() =>
          chain.publicClient.readContract({
            address: factory,
            abi: factoryAbi,
            functionName: "predict",
            args: [owner.address, salt]
          })
        )
      )
      yield* Effect.promise(() =>
        chain.sender.write(chain.accounts[0]!, factory, factoryAbi, "deploy", [owner.address, salt])
      )
      const receipt = yield* Effect.promise(() =>
        chain.sender.write(owner, wallet, walletAbi, "execute", [
          chain.deployments.launchpad!.fireLaunch,
          encodeFunctionData({ abi: FireLaunchAbi, functionName: "ignite", args: ["Smart", "SMRT"] })
        ])
      )
      const [event] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
      assert.strictEqual(event!.args.creator, wallet)
      const token = event!.args.token

      // The wallet signs in (SIWE, ERC-1271) and claims with an EIP-712 signature its owner made.
      const message = siweMessage(wallet, yield* getNonce(wallet))
      const session = yield* postJson("/v1/session/wallet/verify", {
        message,
        signature: yield* Effect.promise(() => owner.signMessage({ message }))
      })
      assert.strictEqual(session.status, 200, JSON.stringify(session.body))
      const jwt = session.body.token as string
      const userId = session.body.user.id as string
      const t = now()
      // Another key signing for the smart wallet: verification as the wallet (ERC-1271) fails, and the key that
      // signed is neither the caller's wallet nor the creator → INVALID_SIGNATURE.
      const stranger = newAccount()
      const strangerRes = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
        wallet,
        signedAt: t,
        signature: yield* sign(stranger, { token, wallet, userId, signedAt: t })
      })
      expectError(strangerRes, 400, "INVALID_SIGNATURE")
      const ownerSig = yield* sign(owner, { token, wallet, userId, signedAt: t })
      const res = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, { wallet, signedAt: t, signature: ownerSig })
      assert.strictEqual(res.status, 201, JSON.stringify(res.body))
      assert.strictEqual(res.body.creatorWallet, wallet)
    })
  )
})

/** A POST with no body at all (no multipart): still "no image". */
const client_post_empty = (jwt: string, path: string) => authed(jwt, "POST", path)
