import type { Account, Hex } from "viem"
import { createSiweMessage } from "viem/siwe"

/**
 * Signing helpers for agents and scripts on viem accounts (a private key via `privateKeyToAccount`, or any local
 * or JSON-RPC account that can `signMessage`). The backend never sees keys: it verifies what these produce.
 */

export interface SignInOptions {
  /** The nonce from `GET /v1/session/wallet/nonce` (tool `app_session_wallet_nonce`). */
  readonly nonce: string
  /** The client service's origin, e.g. `http://localhost:3000`: its host is the EIP-4361 domain, it is the URI. */
  readonly origin: string
  readonly chainId: number
  readonly statement?: string
  readonly issuedAt?: Date
}

/** The EIP-4361 message the server accepts (address line, `Nonce:` and the standard lines). */
export const signInMessage = (address: Hex, options: SignInOptions): string => {
  const url = new URL(options.origin)
  return createSiweMessage({
    domain: url.host,
    address,
    statement: options.statement ?? "Sign in to Fire",
    uri: url.origin,
    version: "1",
    chainId: options.chainId,
    nonce: options.nonce,
    issuedAt: options.issuedAt ?? new Date()
  })
}

/** `{message, signature}`: the body of `POST /v1/session/wallet/verify` (tool `app_session_wallet_verify`). */
export const signIn = async (
  account: Account & { signMessage: NonNullable<Account["signMessage"]> },
  options: SignInOptions
): Promise<{ message: string; signature: Hex }> => {
  const message = signInMessage(account.address, options)
  return { message, signature: await account.signMessage({ message }) }
}

/** The answer of `GET /v1/tokens/{mintAddress}/claim/typed-data` (tool `app_tokens_claim_typed_data`). */
export interface ClaimTypedDataAnswer {
  readonly domain: {
    readonly name: string
    readonly version: string
    readonly chainId: number
    readonly verifyingContract: string
  }
  readonly types: { readonly Claim: ReadonlyArray<{ readonly name: string; readonly type: string }> }
  readonly primaryType: "Claim"
  readonly message: {
    readonly token: string
    readonly wallet: string
    readonly userId: string
    readonly signedAt: string
  }
}

/**
 * Signs the claim typed data the server handed out (EIP-712, `Claim(address token,address wallet,string userId,
 * uint256 signedAt)`), as the token's creator. Returns the body of `POST /v1/tokens/{mintAddress}/claim`
 * (tool `app_tokens_claim`): `{ wallet, signedAt, signature }`.
 */
export const signClaim = async (
  account: Account & { signTypedData: NonNullable<Account["signTypedData"]> },
  typedData: ClaimTypedDataAnswer
): Promise<{ wallet: Hex; signedAt: number; signature: Hex }> => {
  const signature = await account.signTypedData({
    domain: { ...typedData.domain, verifyingContract: typedData.domain.verifyingContract as Hex },
    types: { Claim: typedData.types.Claim.map((f) => ({ ...f })) },
    primaryType: "Claim",
    message: {
      token: typedData.message.token as Hex,
      wallet: typedData.message.wallet as Hex,
      userId: typedData.message.userId,
      signedAt: BigInt(typedData.message.signedAt)
    }
  })
  return { wallet: account.address, signedAt: Number(typedData.message.signedAt), signature }
}
