import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Hex, numberToHex, recoverMessageAddress } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { Effect, Layer } from "effect"
import { recoverMessageSigner, SignerRecovery } from "../../src/client-api/accounts/sessions/SignerRecovery.ts"
import { formatSiweMessage } from "../../src/client-api/accounts/sessions/SiweMessage.ts"
import { readVectors, type VerificationVector } from "./siweVectors.ts"

/** The reference: viem's pure-JS recovery, lower-cased, a throw read as "no signer". */
const viemSigner = (message: string, signature: string) =>
  recoverMessageAddress({ message, signature: signature as Hex }).then(
    (address) => address.toLowerCase(),
    () => undefined
  )

const expectSame = async (message: string, signature: string) => {
  const reference = await viemSigner(message, signature)
  expect(recoverMessageSigner(message, signature), `${signature} over ${JSON.stringify(message)}`).toBe(reference)
  return reference
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const word = (n: bigint) => numberToHex(n, { size: 32 }).slice(2)
const parts = (signature: Hex) => ({
  r: BigInt(`0x${signature.slice(2, 66)}`),
  s: BigInt(`0x${signature.slice(66, 130)}`),
  v: Number.parseInt(signature.slice(130), 16)
})
const join = (r: bigint, s: bigint, v: number): string => `0x${word(r)}${word(s)}${v.toString(16).padStart(2, "0")}`

/** A random case: a private key, a message, and the noise `variants` bends its signature with (r, s, v, cut). */
const signatureCase = [
  fc.bigInt({ min: 1n, max: N - 1n }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
  fc.constantFrom(0, 1, 27, 28, 29),
  fc.integer({ min: 0, max: 131 })
] as const

/** Everything a client could send in place of a good signature, built from one good one. */
const variants = (signature: Hex, noise: { r: bigint; s: bigint; v: number; cut: number }): Array<string> => {
  const { r, s, v } = parts(signature)
  const flipped = v === 27 ? 28 : 27
  return [
    signature,
    join(r, s, v - 27), // yParity form
    join(r, N - s, flipped), // the high-s twin: the same key
    join(r, N - s, v), // high s, wrong parity: another key
    join(r, s, flipped), // wrong parity: another key, or none
    ...[2, 3, 26, 29, 35, 36, 255].map((bad) => join(r, s, bad)),
    join(0n, s, v),
    join(r, 0n, v),
    join(N, s, v),
    join(r, N, v),
    join(r, N + 1n, v),
    join(noise.r, s, v), // random r: often not a curve point's x
    join(r, noise.s, v),
    join(noise.r, noise.s, noise.v),
    signature.slice(0, noise.cut), // short, odd lengths included
    `${signature}00`,
    `${signature.slice(0, 130)}${(v - 27).toString(16)}` // 129 digits: viem reads a one-digit v
  ]
}

describe("signature recovery: tiny-secp256k1 (WebAssembly) answers as viem's recoverMessageAddress", () => {
  it("on the SIWE conformance vectors (verification and ERC-1271 files, as EOA recovery)", async () => {
    const verification = {
      ...readVectors<VerificationVector>("verification_positive.json"),
      ...readVectors<VerificationVector>("verification_negative.json")
    }
    let recovered = 0
    let compared = 0
    for (const [name, vector] of Object.entries(verification)) {
      const { domainBinding, matchNonce, signature, time, ...fields } = vector
      const message = formatSiweMessage(fields)
      if (message._tag === "Failure") continue
      for (const candidate of variants(signature, { r: 5n, s: 7n, v: 28, cut: 120 })) {
        if ((await expectSame(message.success, candidate)) !== undefined) recovered++
        compared++
      }
      if (name === "example message") {
        expect(recoverMessageSigner(message.success, signature)).toBe(String(fields.address).toLowerCase())
      }
    }
    for (const { message, signature } of Object.values(
      readVectors<{ message: string; signature: Hex }>("eip1271.json")
    )) {
      await expectSame(message, signature)
      compared++
    }
    expect(compared).toBeGreaterThan(200)
    expect(recovered).toBeGreaterThan(20)
  })

  it("on 1,000 random keys and messages, each with its malformed, high-s and wrong-parity variants", async () => {
    let agreedOnSigner = 0
    let agreedOnRejection = 0
    await fc.assert(
      fc.asyncProperty(...signatureCase, async (key, message, r, s, v, cut) => {
        const account = privateKeyToAccount(numberToHex(key, { size: 32 }))
        const signature = await account.signMessage({ message })
        expect(recoverMessageSigner(message, signature)).toBe(account.address.toLowerCase())
        for (const candidate of variants(signature, { r, s, v, cut })) {
          if ((await expectSame(message, candidate)) === undefined) agreedOnRejection++
          else agreedOnSigner++
        }
      }),
      { numRuns: 1000 }
    )
    // Both outcomes were exercised many times (each run has 4 recoverable variants and at least 11 rejected ones).
    expect(agreedOnSigner).toBeGreaterThanOrEqual(4000)
    expect(agreedOnRejection).toBeGreaterThanOrEqual(11000)
  }, 120_000)
})

describe("SignerRecovery.layerWorkers (the recovery in a worker thread, as the app runs it)", () => {
  it("answers as recoverMessageSigner on the main thread: 200 random keys, each with its variants", async () => {
    const cases = fc.sample(fc.tuple(...signatureCase), { numRuns: 200, seed: 26 })
    const inputs = await Promise.all(
      cases.map(async ([key, message, r, s, v, cut]) => {
        const signature = await privateKeyToAccount(numberToHex(key, { size: 32 })).signMessage({ message })
        return [signature, ...variants(signature, { r, s, v, cut })].map((candidate) => ({ message, candidate }))
      })
    )
    const flat = inputs.flat()
    const answers = await Effect.runPromise(
      Effect.gen(function* () {
        const recovery = yield* SignerRecovery
        return yield* Effect.forEach(flat, ({ candidate, message }) => recovery.recover(message, candidate), {
          concurrency: 50
        })
      }).pipe(Effect.provide(Layer.fresh(SignerRecovery.layerWorkers(1))))
    )
    expect(answers).toEqual(flat.map(({ candidate, message }) => recoverMessageSigner(message, candidate)))
    // Both outcomes were exercised: each case's own signature and its recoverable variants, and the rejected ones.
    expect(answers.filter((a) => a !== undefined).length).toBeGreaterThanOrEqual(200 * 5)
    expect(answers.filter((a) => a === undefined).length).toBeGreaterThanOrEqual(200 * 11)
  }, 60_000)
})
