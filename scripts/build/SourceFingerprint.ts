import { createHash } from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

/**
 * What `dist/` is built from, as one hash: the folders tsconfig.build.json includes, web/ (GraphiQL's page, which
 * scripts/build-graphiql.ts bundles), the two tsconfigs, package.json (its build script) and package-lock.json (the
 * compiler, the dependencies' types and the bundled packages). Contents, not times: a
 * checkout or a copy that leaves every file as it was keeps the fingerprint, an edit to any file changes it.
 */
export const buildConfigFiles = ["web", "tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json"]

/** The folders and files tsconfig.build.json includes (`include`, paths relative to the repository). */
export const buildIncludes = (root: string): ReadonlyArray<string> => {
  const config = JSON.parse(NodeFs.readFileSync(NodePath.join(root, "tsconfig.build.json"), "utf8")) as {
    include?: Array<string>
  }
  return config.include ?? []
}

const filesUnder = (root: string, path: string): Array<string> => {
  const full = NodePath.join(root, path)
  if (!NodeFs.existsSync(full)) return []
  if (!NodeFs.statSync(full).isDirectory()) return [path]
  return NodeFs.readdirSync(full, { withFileTypes: true })
    .filter((entry) => entry.name !== "node_modules")
    .flatMap((entry) => filesUnder(root, NodePath.join(path, entry.name)))
}

/** One sha256 over the path and contents of every input file, in a fixed order. */
export const sourceFingerprint = (root: string, inputs: ReadonlyArray<string>): string => {
  const hash = createHash("sha256")
  const files = [...new Set(inputs.flatMap((input) => filesUnder(root, input)))].sort()
  for (const file of files) {
    hash.update(`${file.split(NodePath.sep).join("/")}\0`)
    hash.update(NodeFs.readFileSync(NodePath.join(root, file)))
    hash.update("\0")
  }
  return hash.digest("hex")
}

/** The fingerprint of the sources the current `dist/` was built from, when there is a build. */
export const fingerprintFile = (root: string) => NodePath.join(root, "dist", ".source-fingerprint")

export const builtFingerprint = (root: string): string | undefined => {
  const file = fingerprintFile(root)
  return NodeFs.existsSync(file) ? NodeFs.readFileSync(file, "utf8").trim() : undefined
}

/** Whether `dist/` must be built: why (no build yet, sources changed), or `undefined` when it is current. */
export const buildNeeded = (root: string): { readonly fingerprint: string; readonly reason: string | undefined } => {
  const fingerprint = sourceFingerprint(root, [...buildIncludes(root), ...buildConfigFiles])
  const built = builtFingerprint(root)
  const reason =
    // GraphiQL's bundle is part of the build (npm run build): a dist/ without it would serve /v1/graphql a 503.
    !NodeFs.existsSync(NodePath.join(root, "dist", "src", "main.js")) ||
    !NodeFs.existsSync(NodePath.join(root, "dist", "graphiql", "manifest.json")) ||
    built === undefined
      ? "no build yet"
      : built !== fingerprint
        ? "sources changed since the last build"
        : undefined
  return { fingerprint, reason }
}
