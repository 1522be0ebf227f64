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
