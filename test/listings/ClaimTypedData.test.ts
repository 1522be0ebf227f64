import { assert, describe, it } from "@effect/vitest"
import { getAddress, hashTypedData, recoverTypedDataAddress } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import {
  CLAIM_MAX_AGE_SECONDS,
  CLAIM_MAX_SKEW_SECONDS,
  claimTypedData,
  signatureAge
} from "../../src/client-api/listings/claims/ClaimTypedData.ts"

const fireLaunch = getAddress("0x5fbdb2315678afecb367f032d93f642f64180aa3")
const token = getAddress("0x0000000000000000000000000000000000000abc")

describe("claim typed data", () => {
  it("signatureAge: inside [now - 3600, now + 60] is ok; outside is expired / future", () => {
    const now = 1_700_000_000
    assert.strictEqual(signatureAge(BigInt(now), now), "ok")
    assert.strictEqual(signatureAge(BigInt(now - CLAIM_MAX_AGE_SECONDS), now), "ok")
    assert.strictEqual(signatureAge(BigInt(now - CLAIM_MAX_AGE_SECONDS - 1), now), "expired")
    assert.strictEqual(signatureAge(BigInt(now + CLAIM_MAX_SKEW_SECONDS), now), "ok")
    assert.strictEqual(signatureAge(BigInt(now + CLAIM_MAX_SKEW_SECONDS + 1), now), "future")
    assert.strictEqual(signatureAge(0n, now), "expired")
    // Fractions of a second on the server side do not move the boundary.
    assert.strictEqual(signatureAge(BigInt(now - CLAIM_MAX_AGE_SECONDS), now + 0.999), "ok")
  })

  it("a viem signature recovers to the signer; any changed field changes the digest", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const message = {
      token,
      wallet: account.address,
      userId: "0b6f3c1e-8f7a-4d1e-9a51-2b1f0c9e7d11",
      signedAt: 1_700_000_000n
    }
    const typed = claimTypedData({ chainId: 31337, fireLaunch, message })
    assert.deepStrictEqual(typed.domain, { name: "Fire", version: "1", chainId: 31337, verifyingContract: fireLaunch })
    const signature = await account.signTypedData(typed)
    assert.strictEqual(await recoverTypedDataAddress({ ...typed, signature }), account.address)
    const digest = hashTypedData(typed)
    for (const changed of [
      claimTypedData({ chainId: 1, fireLaunch, message }),
      claimTypedData({ chainId: 31337, fireLaunch: token, message }),
      claimTypedData({ chainId: 31337, fireLaunch, message: { ...message, userId: "other" } }),
      claimTypedData({ chainId: 31337, fireLaunch, message: { ...message, signedAt: 1_700_000_001n } }),
      claimTypedData({ chainId: 31337, fireLaunch, message: { ...message, token: fireLaunch } })
    ]) {
      assert.notStrictEqual(hashTypedData(changed), digest)
    }
  })
})
