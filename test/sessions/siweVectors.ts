import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** The SIWE conformance vectors (spruceid `siwe` test fixtures), copied into the repository: test/fixtures/siwe/README.md. */
export const vectorsDir = fileURLToPath(new URL("../fixtures/siwe/", import.meta.url))

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
