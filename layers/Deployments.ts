import { Data, Effect, Schema } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { Deployments } from "../src/platform/Deployments.ts"

/** Reading and writing a deployments file (the record's schema: src/platform/Deployments.ts). */

export class DeploymentsError extends Data.TaggedError("DeploymentsError")<{
  readonly file: string
  readonly message: string
  readonly cause?: unknown
}> {}

const DeploymentsJson = Schema.fromJsonString(Deployments)
const decodeJson = Schema.decodeUnknownSync(DeploymentsJson)

/** Reads and decodes a deployments file (plain function for tests and scripts). Throws DeploymentsError. */
export const readDeploymentsSync = (file: string): Deployments => {
  let text: string
  try {
    text = NodeFs.readFileSync(file, "utf8")
  } catch (cause) {
    throw new DeploymentsError({ file, message: `cannot read deployments file ${file}: ${String(cause)}`, cause })
  }
  try {
    return decodeJson(text)
  } catch (cause) {
    throw new DeploymentsError({ file, message: `invalid deployments file ${file}: ${String(cause)}`, cause })
  }
}

export const readDeployments = (file: string): Effect.Effect<Deployments, DeploymentsError> =>
  Effect.try({
    try: () => readDeploymentsSync(file),
    catch: (cause) =>
      cause instanceof DeploymentsError ? cause : new DeploymentsError({ file, message: String(cause), cause })
  })

/** Writes the file atomically (temporary file + rename), pretty-printed. */
export const writeDeploymentsSync = (file: string, deployments: Deployments): void => {
  const encoded = Schema.encodeSync(Deployments)(deployments)
  NodeFs.mkdirSync(NodePath.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  NodeFs.writeFileSync(tmp, `${JSON.stringify(encoded, null, 2)}\n`)
  NodeFs.renameSync(tmp, file)
}
