import { Context, Data, Effect, Layer, Option } from "effect"
import {
  type Address,
  createPublicClient,
  custom,
  type Hex,
  type PublicClient,
  recoverTypedDataAddress,
  size,
  toHex,
  type TypedDataDefinition
} from "viem"
import { verifyMessage, verifyTypedData } from "viem/actions"
import { recoverMessageSigner } from "./SignerRecovery.ts"

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
  /**
   * Whether `signature` is `address`'s EIP-712 signature of `typedData` (EOA, ERC-1271 or ERC-6492 alike). Same
   * contract as `verify`: `false` for a signature that does not verify, failure only when the chain cannot be asked.
   */
  readonly verifyTypedData: (input: {
    readonly address: Address
    readonly typedData: TypedDataDefinition
    readonly signature: Hex
  }) => Effect.Effect<boolean, SignatureVerifierUnavailable>
}

/** Whether an EOA, `address`, made `signature`: a local recovery (WebAssembly secp256k1), no chain. */
const signedByEoa = (input: { address: Address; message: string; signature: Hex }) =>
  recoverMessageSigner(input.message, input.signature) === input.address.toLowerCase()

const localVerify = (input: { address: Address; message: string; signature: Hex }) =>
  Effect.sync(() => signedByEoa(input))

const localVerifyTypedData = (input: { address: Address; typedData: TypedDataDefinition; signature: Hex }) =>
  Effect.promise(() =>
    recoverTypedDataAddress({ ...input.typedData, signature: input.signature }).then(
      (signer) => signer.toLowerCase() === input.address.toLowerCase(),
      () => false
    )
  )

/**
 * The EOA that made `signature`, a 65-byte ECDSA signature (r, s, v), over `typedData`; none when it is not one (other
 * length, v not 0/1/27/28, r or s out of range). Local, no chain. Every well-formed signature recovers to *some*
 * address — one made over other data to an unrelated one — so this explains a `verifyTypedData` that said no (who
 * signed, if not the expected wallet); it never accepts a signature.
 */
export const recoverTypedDataSigner = (
  typedData: TypedDataDefinition,
  signature: Hex
): Effect.Effect<Option.Option<Address>> =>
  size(signature) !== 65
    ? Effect.succeedNone
    : Effect.promise(() =>
        recoverTypedDataAddress({ ...typedData, signature }).then(
          (signer): Option.Option<Address> => Option.some(signer),
          () => Option.none()
        )
      )

/**
 * Verifies wallet signatures. The production implementation is `layerWith`: an EOA signer recovered locally
 * (`SignerRecovery.ts`, no RPC round trip), and otherwise viem's `verifyMessage` action on a public client, which asks
 * the chain — ERC-1271 `isValidSignature` for deployed smart wallets, the ERC-6492 universal validator (a
 * deployless `eth_call`) for undeployed ones.
 *
 * It is a reference with a default so that the composition root can provide the chain-backed layer once the chain
 * is wired, without every server layer requiring it: the default, `local`, verifies EOA signatures only (a smart
 * wallet's signature is then refused, never wrongly accepted).
 */
const Reference = Context.Reference<SignatureVerifierShape>("app/sessions/SignatureVerifier", {
  defaultValue: () => ({ description: "local (EOA only)", verify: localVerify, verifyTypedData: localVerifyTypedData })
})

/**
 * `client` with a gas limit on every `eth_call` (a lower one the call asks for is kept). The ERC-6492 validator
 * deploys the signer's factory in a deployless call: without a limit the node's cap applies (often 50M gas), so
 * anyone could make the operator's RPC run 50M gas of their code per request. viem's verify actions take no gas
 * option, hence the transport.
 */
export const gasCappedClient = (client: PublicClient, gas: bigint): PublicClient =>
  createPublicClient({
    chain: client.chain,
    transport: custom(
      {
        request: ({ method, params }) => {
          if (method !== "eth_call" || !Array.isArray(params) || typeof params[0] !== "object" || params[0] === null) {
            return client.request({ method, params } as never)
          }
          const [call, ...rest] = params as [{ gas?: Hex }, ...Array<unknown>]
          const asked = call.gas === undefined ? undefined : BigInt(call.gas)
          const capped = { ...call, gas: toHex(asked !== undefined && asked < gas ? asked : gas) }
          return client.request({ method, params: [capped, ...rest] } as never)
        }
      },
      { retryCount: 0 }
    )
  }) as PublicClient

/** The chain-backed verifier; `gas` (SIGNATURE_VERIFY_GAS) limits each verification `eth_call`. */
const layerWith = (chainClient: PublicClient, gas: bigint = 2_000_000n) => {
  const client = gasCappedClient(chainClient, gas)
  return Layer.succeed(Reference, {
    description: `chain ${client.chain?.id ?? "unknown"}`,
    // The EOA case first, at WebAssembly speed; viem's action (which would recover again in JS before asking the
    // chain) only for what is not an EOA's signature: smart wallets, and signatures that verify nowhere.
    verify: ({ address, message, signature }) =>
      Effect.suspend(() =>
        signedByEoa({ address, message, signature })
          ? Effect.succeed(true)
          : Effect.tryPromise({
              try: () => verifyMessage(client, { address, message, signature, mode: "eoa" }),
              catch: (cause) => new SignatureVerifierUnavailable({ cause })
            })
      ),
    verifyTypedData: ({ address, signature, typedData }) =>
      Effect.tryPromise({
        try: () => verifyTypedData(client, { ...typedData, address, signature, mode: "eoa" }),
        catch: (cause) => new SignatureVerifierUnavailable({ cause })
      })
  })
}

/** EOA-only verification without a chain (the default), for chainless tools and tests of pure logic. */
const layerLocal = Layer.succeed(Reference, {
  description: "local (EOA only)",
  verify: localVerify,
  verifyTypedData: localVerifyTypedData
})

export const SignatureVerifier = Object.assign(Reference, { layerWith, layerLocal })
