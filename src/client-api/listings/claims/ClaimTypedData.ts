import type { Address } from "viem"

/**
 * The EIP-712 typed data a token's on-chain creator signs to claim its listing (POST /v1/tokens/{mintAddress}/claim).
 *
 * - domain: `name` "Fire", `version` "1", the chain's `chainId`, and FireLaunch as `verifyingContract` — the
 *   contract whose `creatorOf(token)` the signer must be, so a signature is only good for that launchpad on that chain.
 * - message `Claim`:
 *   - `token`    the token (mint) address being claimed;
 *   - `wallet`   the claimant's wallet: the address that signs, which must be the on-chain creator;
 *   - `userId`   the id of the signed-in user the listing is linked to: a signature cannot be replayed from another
 *                session (the spec keeps the session and the signature independent; this binds them);
 *   - `signedAt` unix seconds when it was signed: valid for CLAIM_MAX_AGE_SECONDS (3600) after it, and refused when
 *                more than CLAIM_MAX_SKEW_SECONDS (60) in the future.
 * Pure data, shared by the server, the OpenAPI description and clients.
 */
export const CLAIM_DOMAIN_NAME = "Fire"
export const CLAIM_DOMAIN_VERSION = "1"
export const CLAIM_MAX_AGE_SECONDS = 3600
export const CLAIM_MAX_SKEW_SECONDS = 60

export const claimTypes = {
  Claim: [
    { name: "token", type: "address" },
    { name: "wallet", type: "address" },
    { name: "userId", type: "string" },
    { name: "signedAt", type: "uint256" }
  ]
} as const

// A type alias (not an interface) so that it is assignable to viem's `Record<string, unknown>` message type.
export type ClaimMessage = {
  readonly token: Address
  readonly wallet: Address
  readonly userId: string
  readonly signedAt: bigint
}

/** The full typed-data definition (viem `signTypedData` / `verifyTypedData` parameters, minus the account). */
export const claimTypedData = (input: {
  readonly chainId: number
  readonly fireLaunch: Address
  readonly message: ClaimMessage
}) => ({
  domain: {
    name: CLAIM_DOMAIN_NAME,
    version: CLAIM_DOMAIN_VERSION,
    chainId: input.chainId,
    verifyingContract: input.fireLaunch
  } as const,
  types: claimTypes,
  primaryType: "Claim" as const,
  message: input.message
})

export type SignatureAge = "ok" | "expired" | "future"

/** Whether `signedAt` (unix seconds) is inside the window at `nowSeconds`. */
export const signatureAge = (signedAt: bigint, nowSeconds: number): SignatureAge => {
  const now = BigInt(Math.floor(nowSeconds))
  if (signedAt > now + BigInt(CLAIM_MAX_SKEW_SECONDS)) return "future"
  if (now - signedAt > BigInt(CLAIM_MAX_AGE_SECONDS)) return "expired"
  return "ok"
}
