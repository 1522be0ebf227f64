import { execFileSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { buildNeeded, fingerprintFile } from "./build/SourceFingerprint.ts"

/**
 * `npm start` builds only when the sources changed since `dist/` was built: a full `tsc` takes ~9 s even when nothing
 * changed, the fingerprint (scripts/build/SourceFingerprint.ts) a few milliseconds. The build itself stays
 * `npm run build`; the fingerprint is written only after it succeeded, so a failed build is retried next time.
 */
const root = NodePath.resolve(import.meta.dirname, "..")
const { fingerprint, reason } = buildNeeded(root)

if (reason !== undefined) {
  const t0 = performance.now()
  console.log(`building dist/ (${reason})`)
  try {
    execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" })
  } catch {
    process.exit(1)
  }
  NodeFs.writeFileSync(fingerprintFile(root), `${fingerprint}\n`)
  console.log(`built in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}
