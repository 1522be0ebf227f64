import { Config, Context, Effect, Layer, Option } from "effect"
import { burstConfig, type RateLimitRule } from "../../../platform/ratelimit/RateLimitConfig.ts"

/**
 * Limits on signature verification. A verify may cost an `eth_call` on the operator's RPC (ERC-1271,
 * or the ERC-6492 deployless validator running the caller's factory), so it is bounded four ways: per client IP
 * and per address (shared RateLimiter, 429 RATE_LIMITED), per nonce (it dies after a few failed signatures), and
 * in gas (each verification `eth_call` carries a gas limit, whatever the node's own cap).
 */
export interface SignInLimitSettings {
  /**
   * SIGNIN_IP_RATE_LIMIT per SIGNIN_IP_RATE_WINDOW_SECONDS: sign-in requests per client IP (default 120 per 60 s: a
   * nonce and a verify per sign-in), at most SIGNIN_IP_RATE_BURST at once (production: 20; RateLimitConfig.ts
   * `burstConfig`): each writes a row or may cost an eth_call.
   */
  readonly perIp: RateLimitRule
  /** SIGNIN_ADDRESS_RATE_LIMIT per SIGNIN_ADDRESS_RATE_WINDOW_SECONDS: verifies per wallet address (10 per 60 s). */
  readonly perAddress: RateLimitRule
  /** CLAIM_RATE_LIMIT per CLAIM_RATE_WINDOW_SECONDS: claim submissions per user (10 per 60 s). */
  readonly claimPerUser: RateLimitRule
  /** SIWE_NONCE_MAX_FAILURES: failed signatures a nonce survives (3); then it is spent. */
  readonly nonceMaxFailures: number
  /** SIGNATURE_VERIFY_GAS: the gas limit of every verification `eth_call` (2,000,000). */
  readonly verifyGas: bigint
}

export const defaultSignInLimits: SignInLimitSettings = {
  perIp: { limit: 120, windowSeconds: 60 },
  perAddress: { limit: 10, windowSeconds: 60 },
  claimPerUser: { limit: 10, windowSeconds: 60 },
  nonceMaxFailures: 3,
  verifyGas: 2_000_000n
}

const rule = (name: string, fallback: RateLimitRule) =>
  Config.all({
    limit: Config.Int(`${name}_RATE_LIMIT`).pipe(Config.withDefault(fallback.limit)),
    windowSeconds: Config.Int(`${name}_RATE_WINDOW_SECONDS`).pipe(Config.withDefault(fallback.windowSeconds))
  })

export const signInLimitsConfig: Config.Config<SignInLimitSettings> = Config.all({
  perIp: rule("SIGNIN_IP", defaultSignInLimits.perIp).pipe(Config.flatMap(burstConfig("SIGNIN_IP_RATE_BURST"))),
  perAddress: rule("SIGNIN_ADDRESS", defaultSignInLimits.perAddress),
  claimPerUser: rule("CLAIM", defaultSignInLimits.claimPerUser),
  nonceMaxFailures: Config.Int("SIWE_NONCE_MAX_FAILURES").pipe(
    Config.withDefault(defaultSignInLimits.nonceMaxFailures)
  ),
  verifyGas: Config.Int("SIGNATURE_VERIFY_GAS").pipe(Config.withDefault(2_000_000), Config.map(BigInt))
})

/** Optional in the context: tests provide it; the app reads the keys above from the environment. */
export class SignInLimitsConfig extends Context.Service<SignInLimitsConfig, SignInLimitSettings>()(
  "app/sessions/SignInLimitsConfig"
) {
  static readonly layerWith = (settings: Partial<SignInLimitSettings>) =>
    Layer.succeed(SignInLimitsConfig, { ...defaultSignInLimits, ...settings })
}

export const signInLimits: Effect.Effect<SignInLimitSettings, Config.ConfigError> = Effect.gen(function* () {
  const given = yield* Effect.serviceOption(SignInLimitsConfig)
  return Option.isSome(given) ? given.value : yield* signInLimitsConfig
})
