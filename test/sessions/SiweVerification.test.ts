import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Result } from "effect"
import type { Address, Hex } from "viem"
import { SignatureVerifier } from "../../src/client-api/accounts/sessions/SignatureVerifier.ts"
import { formatSiweMessage, parseSiweMessage } from "../../src/client-api/accounts/sessions/SiweMessage.ts"
import { checkSiwePolicy } from "../../src/client-api/accounts/sessions/SiwePolicy.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { readVectors, type VerificationVector } from "./siweVectors.ts"

/** The chain-backed verifier over a bare anvil (the vectors' addresses are mainnet EOAs: no code here). */
const VerifierOnAnvil = Layer.unwrap(
  AnvilChain.useSync((chain) => SignatureVerifier.layerWith(chain.publicClient))
).pipe(Layer.provideMerge(AnvilChain.layerWith({ state: "empty" })))

/**
 * The server's checks in their order, at the vector's time: build the standard message from the fields (refusing
 * impossible ones), parse it back, apply the policy (domain binding, validity window), compare the nonce (the
 * server binds nonces in the database; a vector gives the expected one), verify the signature.
 */
const verifyVector = (vector: VerificationVector) =>
  Effect.gen(function* () {
    const { domainBinding, matchNonce, signature, time, ...fields } = vector
    const message = formatSiweMessage(fields)
    if (Result.isFailure(message)) return `format: ${message.failure.message}`
    const parsed = parseSiweMessage(message.success)
    if (Result.isFailure(parsed)) return `parse: ${parsed.failure.message}`
    const now = time === undefined ? new Date() : new Date(time)
    const rejection = checkSiwePolicy(
      parsed.success,
      { domains: domainBinding ? [domainBinding] : [], chainIds: [] },
      now
    )
    if (rejection !== undefined) return rejection.code
    if (matchNonce !== undefined && matchNonce !== parsed.success.nonce) return "INVALID_NONCE"
    const verifier = yield* SignatureVerifier
    const valid = yield* verifier.verify({
      address: parsed.success.address as Address,
      message: message.success,
      signature: signature as Hex
    })
    return valid ? "ok" : "INVALID_SIGNATURE"
  })

const positives = readVectors<VerificationVector>("verification_positive.json")
const negatives = readVectors<VerificationVector>("verification_negative.json")

layer(VerifierOnAnvil, { timeout: "60 seconds", excludeTestServices: true })("SIWE conformance: verification", (it) => {
  it("has the expected number of vectors (4 positive, 10 negative)", () => {
    assert.strictEqual(Object.keys(positives).length, 4)
    assert.strictEqual(Object.keys(negatives).length, 10)
  })

  for (const [name, vector] of Object.entries(positives)) {
    it.effect(`positive: ${name} → accepted`, () =>
      Effect.map(verifyVector(vector), (outcome) => assert.strictEqual(outcome, "ok"))
    )
  }

  const expected: Record<string, string> = {
    "expired message": "SIWE_MESSAGE_EXPIRED",
    "domain binding": "SIWE_DOMAIN_MISMATCH",
    "custom time": "SIWE_MESSAGE_EXPIRED",
    "custom nonce": "INVALID_NONCE",
    "malformed signature": "INVALID_SIGNATURE",
    "wrong signature": "INVALID_SIGNATURE",
    "not yet valid": "SIWE_NOT_YET_VALID",
    "invalid issuedAt": "format: issuedAt must be an RFC 3339 timestamp",
    "invalid notBefore": "format: notBefore must be an RFC 3339 timestamp",
    "invalid expirationTime": "format: expirationTime must be an RFC 3339 timestamp"
  }
  for (const [name, vector] of Object.entries(negatives)) {
    it.effect(`negative: ${name} → rejected (${expected[name]})`, () =>
      Effect.map(verifyVector(vector), (outcome) => assert.strictEqual(outcome, expected[name]))
    )
  }
})
