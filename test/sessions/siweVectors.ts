import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * The SIWE conformance vectors (spruceid `siwe` test fixtures) are read in place from the shared conformance folder
 * next to the repository, never copied into it. `SIWE_VECTORS_DIR` points elsewhere if needed.
 */
export const vectorsDir = process.env.SIWE_VECTORS_DIR ??
  fileURLToPath(new URL("../../../shared/conformance/siwe/", import.meta.url))

export const readVectors = <A>(file: string): Record<string, A> =>
  JSON.parse(readFileSync(`${vectorsDir}/${file}`, "utf8")) as Record<string, A>

export interface VerificationVector {
  readonly signature: `0x${string}`
  /** Check time; the current time when absent. */
  readonly time?: string
  /** The only domain the verifier accepts. */
  readonly domainBinding?: string
  /** The nonce the verifier expects. */
  readonly matchNonce?: string
  readonly [field: string]: unknown
}
