import { Schema } from "effect"
import { WalletAddress } from "../../accounts/users/User.ts"
import { CLAIM_MAX_AGE_SECONDS, CLAIM_MAX_SKEW_SECONDS } from "./ClaimTypedData.ts"

/** Request and response schemas of the claim routes; the typed data itself is in ClaimTypedData.ts. */

export const ClaimPayload = Schema.Struct({
  wallet: WalletAddress.annotate({
    description:
      "The signer: the token's on-chain creator (EOA or ERC-1271/ERC-6492 wallet). Same value as the " +
      "signed message's `wallet`."
  }),
  signedAt: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
    description:
      `Unix seconds, the signed message's \`signedAt\`. Accepted for ${CLAIM_MAX_AGE_SECONDS} s after it; ` +
      `more than ${CLAIM_MAX_SKEW_SECONDS} s in the future is refused too (SIGNATURE_EXPIRED).`
  }),
  // Deliberately loose (any string up to 20k): a signature that is not hex is a claim error (INVALID_SIGNATURE),
  // not a body error, so clients see one code for every unusable signature.
  signature: Schema.String.check(Schema.isMaxLength(4098)).annotate({
    description:
      "EIP-712 signature (hex) of the `Claim` typed data (GET …/claim/typed-data): 65 bytes for an EOA, " +
      "any length for ERC-1271 wallets, ERC-6492-wrapped for undeployed ones"
  })
}).annotate({ identifier: "ClaimPayload" })

export const TypedDataQuery = {
  wallet: Schema.optional(WalletAddress).annotate({
    description: "The signing wallet; the signed-in user's wallet when absent"
  }),
  signedAt: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))).annotate({
    description: "Unix seconds; the server's current time when absent"
  })
}

const TypedField = Schema.Struct({ name: Schema.String, type: Schema.String })

export class ClaimTypedDataView extends Schema.Class<ClaimTypedDataView>("ClaimTypedData")({
  domain: Schema.Struct({
    name: Schema.Literal("Fire"),
    version: Schema.Literal("1"),
    chainId: Schema.Int,
    verifyingContract: Schema.String.annotate({ description: "The FireLaunch contract" })
  }),
  types: Schema.Struct({ Claim: Schema.Array(TypedField) }).annotate({
    description: "Claim(address token,address wallet,string userId,uint256 signedAt)"
  }),
  primaryType: Schema.Literal("Claim"),
  message: Schema.Struct({
    token: Schema.String,
    wallet: Schema.String,
    userId: Schema.String,
    signedAt: Schema.String.annotate({
      description:
        "uint256 as a decimal string (unix seconds). For viem `signTypedData` pass it as a bigint; then " +
        "POST `{wallet, signedAt, signature}` to the claim route"
    })
  })
}) {}
