import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

/**
 * The code-review checks of docs/SECURITY.md (SqlReview, OutboundRequests): every file under the given folders whose
 * text matches `pattern` must be listed in `reviewed` with at least that many uses, and a listed file with fewer uses
 * than reviewed is stale (the list stays the truth).
 */
export interface ReviewedUse {
  readonly uses: number
  readonly why: string
}

export const root = NodePath.resolve(import.meta.dirname, "../..")

export const sourceFiles = (dir: string): Array<string> =>
  NodeFs.readdirSync(NodePath.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

export const readSource = (file: string) => NodeFs.readFileSync(NodePath.join(root, file), "utf8")

export const compareWithReview = (
  dirs: ReadonlyArray<string>,
  pattern: RegExp,
  reviewed: Record<string, ReviewedUse>
) => {
  const found = Object.fromEntries(
    dirs
      .flatMap(sourceFiles)
      .map((f) => [f, (readSource(f).match(pattern) ?? []).length] as const)
      .filter(([, n]) => n > 0)
  )
  const unreviewed = Object.entries(found)
    .filter(([file, n]) => (reviewed[file]?.uses ?? 0) < n)
    .map(([file, n]) => `${file}: ${n} use(s), ${reviewed[file]?.uses ?? 0} reviewed`)
  const stale = Object.keys(reviewed).filter((file) => (found[file] ?? 0) < reviewed[file]!.uses)
  return { unreviewed, stale }
}
