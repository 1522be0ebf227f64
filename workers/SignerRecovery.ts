import * as secp256k1 from "tiny-secp256k1"
import { type Address, hashMessage, hexToBytes, isHex, keccak256, size } from "viem"

/**
 * The address (lower case) whose key made `signature` over the EIP-191 personal message `message`; undefined when
 * the signature cannot be recovered. It answers exactly as viem's `recoverMessageAddress` (a throw there is undefined
 * here; test/sessions/SignerRecovery.test.ts compares the two), but recovers the public key with libsecp256k1
 * compiled to WebAssembly (`tiny-secp256k1`) instead of viem's pure-JS curve: about 5 times faster, which is
 * most of a sign-in's CPU (docs/BENCHMARKS.md, `npm run bench:auth`). Runs on the main thread or in a worker (recover-signer.ts). viem still hashes the message and the key.
 *
 * `signature` is read as viem reads a hex string (the API's schema admits nothing else): 65 bytes by `size` (so 129
 * hex digits are r‖s and a one-digit v), v one of 0, 1, 27, 28, r and s in [1, n). High s is accepted, as by viem
 * and by the EVM's ecrecover: such a signature recovers the key of its low-s twin with the other parity.
 */
export const recoverMessageSigner = (message: string, signature: string): Address | undefined => {
  if (!isHex(signature, { strict: true }) || size(signature) !== 65) return undefined
  const v = Number.parseInt(signature.slice(130), 16)
  const recoveryId = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : undefined
  if (recoveryId === undefined) return undefined
  try {
    const publicKey = secp256k1.recover(
      hashMessage(message, "bytes"),
      hexToBytes(`0x${signature.slice(2, 130)}`),
      recoveryId,
      false
    )
    // The address is the last 20 bytes of the keccak of the uncompressed key without its 0x04 prefix.
    return publicKey === null ? undefined : `0x${keccak256(publicKey.subarray(1)).slice(26)}`
  } catch {
    // tiny-secp256k1 throws on r or s out of range and on an r that is no curve point's x: viem throws there too.
    return undefined
  }
}
