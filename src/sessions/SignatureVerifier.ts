import { Context, Data, Effect, Layer } from "effect"
import { type Address, type Hex, type PublicClient, recoverMessageAddress } from "viem"
import { verifyMessage } from "viem/actions"

/** The chain could not be asked (transport error, timeout): not a verdict on the signature. */
export class SignatureVerifierUnavailable extends Data.TaggedError("SignatureVerifierUnavailable")<{
  readonly cause: unknown
}> {}

export interface SignatureVerifierShape {
  /** Which implementation answers: `chain <id>` or `local (EOA only)`; logged and shown in errors. */
  readonly description: string
  /**
   * Whether `signature` is `address`'s personal_sign (EIP-191) signature of `message`. `false` for any signature that
   * does not verify, including malformed ones; fails only when the chain cannot be asked.
   */
  readonly verify: (input: {
    readonly address: Address
    readonly message: string
    readonly signature: Hex
  }) => Effect.Effect<boolean, SignatureVerifierUnavailable>
}

const localVerify = (input: { address: Address; message: string; signature: Hex }) =>
  Effect.promise(() =>
    recoverMessageAddress({ message: input.message, signature: input.signature }).then(
      (signer) => signer.toLowerCase() === input.address.toLowerCase(),
      () => false
    )
  )

/**
 * Verifies wallet signatures. The production implementation is `layerFromClient`: viem's `verifyMessage` action on a
 * public client, which recovers an EOA signer locally first (`mode: "eoa"`, no RPC round trip) and otherwise asks
 * the chain — ERC-1271 `isValidSignature` for deployed smart wallets, the ERC-6492 universal validator (a
 * deployless `eth_call`) for undeployed ones.
 *
 * It is a reference with a default so that the composition root can provide the chain-backed layer once the chain
 * is wired, without every server layer requiring it: the default, `local`, verifies EOA signatures only (a smart
 * wallet's signature is then refused, never wrongly accepted).
 */
const Reference = Context.Reference<SignatureVerifierShape>("app/sessions/SignatureVerifier", {
  defaultValue: () => ({ description: "local (EOA only)", verify: localVerify })
})

const layerFromClient = (client: PublicClient) =>
  Layer.succeed(Reference, {
    description: `chain ${client.chain?.id ?? "unknown"}`,
    verify: ({ address, message, signature }) =>
      Effect.tryPromise({
        try: () => verifyMessage(client, { address, message, signature, mode: "eoa" }),
        catch: (cause) => new SignatureVerifierUnavailable({ cause })
      })
  })

/** EOA-only verification without a chain (the default), for chainless tools and tests of pure logic. */
const layerLocal = Layer.succeed(Reference, { description: "local (EOA only)", verify: localVerify })

export const SignatureVerifier = Object.assign(Reference, { layerFromClient, layerLocal })
