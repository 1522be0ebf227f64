import { redactedErrorText } from "../../../platform/RedactUrl.ts"
import { Clock, Context, Effect, Layer, Option, Result } from "effect"
import { type Address, getAddress, type Hex } from "viem"
import {
  BadRequest,
  type Forbidden,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized
} from "../../../platform/ApiError.ts"
import { RateLimiter, rateLimitSettings } from "../../../platform/ratelimit/RateLimiter.ts"
import type { IssuedSession } from "./Session.ts"
import { SessionConfig } from "./SessionConfig.ts"
import { Sessions, userBanned } from "./Sessions.ts"
import { SignatureVerifier } from "./SignatureVerifier.ts"
import { SignerRecovery } from "./SignerRecovery.ts"
import { signInLimits } from "./SignInLimits.ts"
import { parseSiweMessage } from "./SiweMessage.ts"
import { checkSiwePolicy } from "./SiwePolicy.ts"
import { type NonceProblem, WalletNonces } from "./WalletNonces.ts"
import { WalletSignInRepo } from "./WalletSignInRepo.ts"

const nonceError = (problem: NonceProblem) =>
  problem === "expired"
    ? new Unauthorized({ code: "NONCE_EXPIRED", message: "The nonce has expired (valid 5 minutes); request a new one" })
    : new Unauthorized({
        code: "INVALID_NONCE",
        message: {
          unknown: "The nonce was not issued by this server",
          "other-address": "The nonce was issued for another address",
          used: "The nonce has already been used",
          exhausted: "The nonce has had too many failed signatures; request a new one"
        }[problem],
        details: { reason: problem }
      })

/**
 * Sign-in with Ethereum (EIP-4361). The order of checks keeps the expensive and the irreversible parts last:
 * parse, policy (domain, URI scheme, chain, validity window), the signature (an EOA's locally; otherwise, after a
 * read of the nonce, ERC-1271/6492 on chain), then one statement (WalletSignInRepo, one round trip) that consumes
 * the nonce atomically, finds or creates the user and stores the session, whose JWT is signed last. An EOA's sign-in
 * is thus one round trip to the database. Two concurrent verifies of one message both pass the signature, and
 * exactly one consumes the nonce; the other gets INVALID_NONCE.
 */
export class WalletSignIn extends Context.Service<
  WalletSignIn,
  {
    readonly nonce: (address: string) => Effect.Effect<{ readonly nonce: string; readonly expiresAt: Date }>
    readonly verify: (input: {
      readonly message: string
      readonly signature: string
    }) => Effect.Effect<IssuedSession, BadRequest | Unauthorized | Forbidden | ServiceUnavailable | TooManyRequests>
  }
>()("app/sessions/WalletSignIn") {
  static readonly layerNoDeps = Layer.effect(
    WalletSignIn,
    Effect.gen(function* () {
      const config = yield* SessionConfig
      const nonces = yield* WalletNonces
      const signIns = yield* WalletSignInRepo
      const recovery = yield* SignerRecovery
      const sessions = yield* Sessions
      const limiter = yield* RateLimiter
      const limitsOn = (yield* Effect.orDie(rateLimitSettings)).enabled
      const { perAddress } = yield* Effect.orDie(signInLimits)
      const policy = {
        domains: config.siweDomains,
        chainIds: config.siweChainIds,
        complete: config.siweRequireComplete === true
      }

      const verify = Effect.fn("WalletSignIn.verify")(function* (input: { message: string; signature: string }) {
        const parsed = parseSiweMessage(input.message)
        if (Result.isFailure(parsed)) {
          return yield* new BadRequest({
            code: "INVALID_SIWE_MESSAGE",
            message: `Not a valid EIP-4361 message: ${parsed.failure.message}`
          })
        }
        const fields = parsed.success
        const rejection = checkSiwePolicy(fields, policy, new Date(yield* Clock.currentTimeMillis))
        if (rejection !== undefined) return yield* new Unauthorized(rejection)

        const address = fields.address as Address
        // An EOA's signature is checked first, locally (SignerRecovery.ts: a fraction of a millisecond of CPU, in a
        // worker thread by default, no I/O). When it verifies, the nonce is checked by the write statement itself,
        // one round trip for the whole sign-in, and read only when the statement refuses it (for the precise error). Anything else (a smart wallet, a wrong
        // signature) may cost an eth_call: the nonce is read first, so a used, expired or exhausted nonce (3 failed
        // signatures, issue 23 M3) never reaches the chain.
        const signedByEoa = (yield* recovery.recover(input.message, input.signature)) === address.toLowerCase()
        if (!signedByEoa) {
          const problem = yield* nonces.check(fields.nonce, address)
          if (Option.isSome(problem)) return yield* nonceError(problem.value)
        }
        if (limitsOn) {
          // Per address, whatever the IP: a verification may cost an eth_call, and an address is what an attacker varies least.
          const decision = yield* limiter.consume("signin-address", address.toLowerCase(), perAddress)
          if (!decision.allowed) {
            return yield* new TooManyRequests({
              code: "RATE_LIMITED",
              message: `At most ${decision.limit} sign-in attempts per ${perAddress.windowSeconds} s for ${address}; retry in ${decision.resetSeconds} s`,
              details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds }
            })
          }
        }

        const verifier = yield* SignatureVerifier
        // The message exactly as sent: the parser reads CRLF as LF, but the signature covers the bytes the client signed.
        const valid =
          signedByEoa ||
          (yield* verifier.verify({ address, message: input.message, signature: input.signature as Hex }).pipe(
            Effect.catchTag("SignatureVerifierUnavailable", (e) =>
              Effect.andThen(
                Effect.logWarning(`signature verification could not reach the chain: ${redactedErrorText(e.cause)}`),
                Effect.fail(
                  new ServiceUnavailable({
                    code: "CHAIN_UNAVAILABLE",
                    message: "Cannot verify the signature now; retry"
                  })
                )
              )
            )
          ))
        if (!valid) {
          // Failed signatures count against the nonce: after SIWE_NONCE_MAX_FAILURES it is spent.
          yield* nonces.recordFailure(fields.nonce, address)
          return yield* new Unauthorized({
            code: "INVALID_SIGNATURE",
            message:
              `The signature does not verify for ${address}: not signed by that key, and no ERC-1271/ERC-6492 ` +
              `wallet at that address accepts it (${verifier.description})`
          })
        }

        const draft = yield* sessions.draft("wallet")
        const outcome = yield* signIns.signIn({
          nonce: fields.nonce,
          address,
          admin: config.adminWallets.includes(address),
          session: draft
        })
        if (outcome._tag === "NonceRejected") {
          return yield* nonceError(Option.getOrElse(yield* nonces.check(fields.nonce, address), () => "used" as const))
        }
        if (outcome._tag === "Banned") return yield* userBanned()
        return yield* sessions.sign(outcome.user, draft)
      })

      return WalletSignIn.of({ nonce: (address) => nonces.issue(getAddress(address)), verify })
    })
  )

  static readonly layer = WalletSignIn.layerNoDeps.pipe(
    Layer.provideMerge(Layer.mergeAll(WalletNonces.layer, WalletSignInRepo.layer, SignerRecovery.layer))
  )
}
