import { redactedErrorText } from "../../../platform/RedactUrl.ts"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type Address, getAddress, type Hex, isAddressEqual } from "viem"
import {
  BadRequest,
  type Conflict,
  type Forbidden,
  type Gone,
  type NotFound,
  type ServiceUnavailable,
  TooManyRequests
} from "../../../platform/ApiError.ts"
import { RateLimiter, rateLimitSettings } from "../../../platform/ratelimit/RateLimiter.ts"
import { signInLimits } from "../../accounts/sessions/SignInLimits.ts"
import { ImageStore, imageUrlPath } from "../../accounts/images/ImageStore.ts"
import { LaunchpadReader, type OnChainLaunch } from "../LaunchpadReader.ts"
import {
  alreadyClaimed,
  chainUnavailable,
  dbAddress,
  imageRequired,
  notCreator,
  tokenDeleted,
  tokenNotFound
} from "../Listing.ts"
import { ListingsRepo, type Metadata } from "../ListingsRepo.ts"
import { Notifications } from "../../notifications/Notifications.ts"
import { recoverTypedDataSigner, SignatureVerifier } from "../../accounts/sessions/SignatureVerifier.ts"
import type { User } from "../../accounts/users/User.ts"
import { CLAIM_MAX_AGE_SECONDS, CLAIM_MAX_SKEW_SECONDS, claimTypedData, signatureAge } from "./ClaimTypedData.ts"

export interface ClaimInput {
  readonly wallet: string
  readonly signedAt: number
  readonly signature: string
}

export type ClaimError = BadRequest | Forbidden | NotFound | Conflict | Gone | ServiceUnavailable | TooManyRequests

const invalidSignature = (message: string) => new BadRequest({ code: "INVALID_SIGNATURE", message })
const HEX_SIGNATURE = /^0x(?:[0-9a-fA-F]{2})+$/

/**
 * Creator claims (spec: Token listing and claim record, Claim rules). The checks run cheapest first and the only
 * write last: the launch on chain (TOKEN_NOT_FOUND), hidden (TOKEN_DELETED), claimed (ALREADY_CLAIMED), the age of
 * `signedAt` (SIGNATURE_EXPIRED), the EIP-712 signature, `wallet` = on-chain creator (NOT_CREATOR). Then one INSERT
 * whose primary key picks the single winner among concurrent claims — the early ALREADY_CLAIMED read is only a fast
 * path.
 *
 * The signature is verified as `wallet`'s (EOA locally, ERC-1271/6492 on chain), so contract wallets work. When it
 * does not verify, the spec's two codes are told apart by the signer recovered from it (a 65-byte ECDSA signature):
 * a signer other than the creator → NOT_CREATOR ("the recovered signer is not the on-chain creator"), e.g. the
 * creator's address in `wallet` but another key signing; nothing recoverable (not hex, wrong length, bad v/r/s) →
 * INVALID_SIGNATURE. ECDSA cannot tell another key from other data: a well-formed signature over other typed data
 * (another token, userId, signedAt, chain) also recovers to an unrelated address, so it too answers NOT_CREATOR, and
 * the message says so. The creator as the recovered signer of a claim naming another `wallet` is INVALID_SIGNATURE.
 */
export class Claims extends Context.Service<
  Claims,
  {
    readonly typedData: (
      user: User,
      mint: string,
      wallet: string | undefined,
      signedAt: number | undefined
    ) => Effect.Effect<ReturnType<typeof claimTypedData>, BadRequest>
    readonly claim: (user: User, mint: string, input: ClaimInput) => Effect.Effect<Metadata, ClaimError>
    /** Stores the upload as the claimed token's image; only the claimant. IMAGE_REQUIRED without a file. */
    readonly setImage: (
      user: User,
      mint: string,
      uploadPath: string | undefined
    ) => Effect.Effect<Metadata, BadRequest | Forbidden | NotFound | Conflict | Gone>
  }
>()("app/claims/Claims") {
  static readonly layer = Layer.effect(
    Claims,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const reader = yield* LaunchpadReader
      const listings = yield* ListingsRepo
      const images = yield* ImageStore
      const notifications = yield* Notifications
      const chainId = reader.chainId
      const limiter = yield* RateLimiter
      const limitsOn = (yield* Effect.orDie(rateLimitSettings)).enabled
      const { claimPerUser } = yield* Effect.orDie(signInLimits)

      // The claim routes are behind LaunchpadDeployed (503 without the launchpad), so FireLaunch is there.
      const deployedFireLaunch = Effect.suspend(() =>
        reader.fireLaunch === undefined
          ? Effect.die(new Error("claims without a launchpad: LaunchpadDeployed should have answered 503"))
          : Effect.succeed(reader.fireLaunch)
      )

      /** The canonical on-chain launch of `mint`, or TOKEN_NOT_FOUND. */
      const launched = (mint: string) =>
        Effect.flatMap(reader.launchOf(getAddress(mint)), (launch) =>
          Option.isSome(launch) && launch.value.canonical
            ? Effect.succeed(launch.value)
            : Effect.fail(tokenNotFound(getAddress(mint)))
        )

      const typedData = Effect.fn("Claims.typedData")(function* (
        user: User,
        mint: string,
        wallet: string | undefined,
        signedAt: number | undefined
      ) {
        const signer = wallet ?? user.walletAddress
        if (signer == null) {
          return yield* new BadRequest({
            code: "WALLET_REQUIRED",
            message: "This account has no wallet: pass ?wallet="
          })
        }
        const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        return claimTypedData({
          chainId,
          fireLaunch: yield* deployedFireLaunch,
          message: {
            token: getAddress(mint),
            wallet: getAddress(signer),
            userId: user.id,
            signedAt: BigInt(signedAt ?? now)
          }
        })
      })

      const verifySignature = Effect.fnUntraced(function* (user: User, launch: OnChainLaunch, input: ClaimInput) {
        const age = signatureAge(BigInt(input.signedAt), (yield* Clock.currentTimeMillis) / 1000)
        if (age !== "ok") {
          return yield* new BadRequest({
            code: "SIGNATURE_EXPIRED",
            message:
              age === "expired"
                ? `The signature is older than ${CLAIM_MAX_AGE_SECONDS} seconds (signedAt ${input.signedAt}); sign again`
                : `signedAt ${input.signedAt} is in the future (more than ${CLAIM_MAX_SKEW_SECONDS} s ahead of the server)`,
            details: {
              reason: age,
              signedAt: input.signedAt,
              maxAgeSeconds: CLAIM_MAX_AGE_SECONDS,
              maxSkewSeconds: CLAIM_MAX_SKEW_SECONDS
            }
          })
        }
        if (!HEX_SIGNATURE.test(input.signature))
          return yield* invalidSignature("The signature is not hex (0x…, whole bytes)")
        const wallet = getAddress(input.wallet)
        const signature = input.signature as Hex
        const typedData = claimTypedData({
          chainId,
          fireLaunch: yield* deployedFireLaunch,
          message: { token: launch.token, wallet, userId: user.id, signedAt: BigInt(input.signedAt) }
        })
        const signed =
          `the Claim typed data (token ${launch.token}, wallet ${wallet}, your userId, signedAt ` +
          `${input.signedAt}, chain ${chainId}, FireLaunch ${reader.fireLaunch})`
        const verifier = yield* SignatureVerifier
        const valid = yield* verifier
          .verifyTypedData({ address: wallet, signature, typedData })
          .pipe(
            Effect.catchTag("SignatureVerifierUnavailable", (e) =>
              Effect.andThen(
                Effect.logWarning(`claim signature: chain unreachable: ${redactedErrorText(e.cause)}`),
                Effect.fail(chainUnavailable())
              )
            )
          )
        if (!valid) {
          // Any 65-byte signature "recovers" to some address, also one made over other data (a replay, a wrong
          // signedAt): only a recovered signer we can name is evidence of who signed. The caller's own wallet is the
          // case NOT_CREATOR exists for (a user signing for a token someone else launched); an unrelated address
          // means the signature does not match this typed data (INVALID_SIGNATURE).
          const signer = yield* recoverTypedDataSigner(typedData, signature)
          const ownWallet = user.walletAddress == null ? undefined : getAddress(user.walletAddress)
          if (
            Option.isSome(signer) &&
            ownWallet !== undefined &&
            isAddressEqual(signer.value, ownWallet) &&
            !isAddressEqual(ownWallet, launch.creator)
          ) {
            return yield* notCreator(
              `You signed ${signed} with your wallet ${ownWallet}, which is not the on-chain creator of ${launch.token} ` +
                `(${launch.creator})`,
              { signer: ownWallet, creator: launch.creator, wallet }
            )
          }
          return yield* invalidSignature(
            Option.isSome(signer) && isAddressEqual(signer.value, launch.creator)
              ? `The creator ${launch.creator} signed ${signed}, but wallet must be the signer: send wallet ${launch.creator}`
              : `The signature does not verify as ${wallet}'s EIP-712 signature of ${signed} — ${verifier.description}`
          )
        }
        if (!isAddressEqual(wallet, launch.creator)) {
          return yield* notCreator(
            `${wallet} signed, but the on-chain creator of ${launch.token} is ${launch.creator}`,
            {
              signer: wallet,
              creator: launch.creator,
              wallet
            }
          )
        }
        return wallet
      })

      const claim = Effect.fn("Claims.claim")(function* (user: User, mint: string, input: ClaimInput) {
        const launch = yield* launched(mint)
        const token = dbAddress(launch.token)
        if (yield* listings.isHidden(chainId, token)) return yield* tokenDeleted(launch.token)
        if (Option.isSome(yield* listings.metadata(chainId, token))) return yield* alreadyClaimed(launch.token)
        if (limitsOn) {
          // Each attempt may cost a verification eth_call (ERC-1271/6492): a window per user.
          const decision = yield* limiter.consume("claim-verify", user.id, claimPerUser)
          if (!decision.allowed) {
            return yield* new TooManyRequests({
              code: "RATE_LIMITED",
              message: `At most ${decision.limit} claim attempts per ${claimPerUser.windowSeconds} s; retry in ${decision.resetSeconds} s`,
              details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds }
            })
          }
        }
        const wallet: Address = yield* verifySignature(user, launch, input)
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const result = yield* listings.insertMetadata({
                chainId,
                tokenAddress: token,
                creatorId: user.id,
                creatorWallet: wallet,
                name: launch.name,
                symbol: launch.symbol,
                description: null,
                category: null,
                image: null,
                source: "claim",
                launchId: null
              })
              if (result._tag === "Hidden") return yield* tokenDeleted(launch.token)
              if (result._tag === "Taken") return yield* alreadyClaimed(launch.token)
              // In this transaction: the notification exists exactly when the claim does.
              yield* notifications.notify(
                user.id,
                "CLAIM_SUCCEEDED",
                { token, chainId, name: launch.name, symbol: launch.symbol },
                { dedupeKey: `claim:${chainId}:${token}` }
              )
              return result.row
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
      })

      const setImage = Effect.fn("Claims.setImage")(function* (
        user: User,
        mint: string,
        uploadPath: string | undefined
      ) {
        const address = getAddress(mint)
        const token = dbAddress(address)
        if (yield* listings.isHidden(chainId, token)) return yield* tokenDeleted(address)
        const record = yield* listings.metadata(chainId, token)
        if (Option.isNone(record)) {
          return yield* notCreator(`${address} is not claimed: claim it first (POST /v1/tokens/${address}/claim)`, {
            mintAddress: address
          })
        }
        if (record.value.creatorId !== user.id) {
          return yield* notCreator(`Only the claimant of ${address} may set its image`, { mintAddress: address })
        }
        if (uploadPath === undefined) return yield* imageRequired()
        const file = yield* images.store(uploadPath)
        const updated = yield* listings.setImage(chainId, token, user.id, imageUrlPath(file))
        return yield* Option.match(updated, {
          onNone: () =>
            Effect.fail(notCreator(`Only the claimant of ${address} may set its image`, { mintAddress: address })),
          onSome: Effect.succeed
        })
      })

      return Claims.of({ typedData, claim, setImage })
    })
  )
}
