import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

/**
 * A user's clone has nothing beside it, so no code, test, script or CI step may read outside the repository: every
 * path a file builds from its own location (`import.meta.dirname`, `new URL(…, import.meta.url)`) must stay inside
 * it, and nothing names the folders that sat beside the repository while it was written. Fixtures copied in from
 * elsewhere live under test/fixtures with a note of their source and license.
 */

const root = NodePath.resolve(import.meta.dirname, "../..")
const folders = ["src", "test", "scripts", ".ci", "layers", "workers", "bin", "contracts"]
const rootFiles = ["vitest.config.ts", "package.json", "tsconfig.json", "tsconfig.build.json"]

const filesUnder = (dir: string): Array<string> =>
  NodeFs.readdirSync(NodePath.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "fixtures" ? [] : filesUnder(path)
    return /\.(ts|js|mjs|cjs|json|sh)$|^run$/.test(entry.name) ? [path] : []
  })

const files = [...folders.filter((d) => NodeFs.existsSync(NodePath.join(root, d))).flatMap(filesUnder), ...rootFiles]
const read = (file: string) => NodeFs.readFileSync(NodePath.join(root, file), "utf8")

/** The relative paths a file resolves against its own location, with the folder they resolve from. */
const pathsFromOwnLocation = (file: string, text: string) => {
  const dir = NodePath.dirname(NodePath.join(root, file))
  const found: Array<{ literal: string; resolved: string }> = []
  for (const m of text.matchAll(/new URL\(\s*"([^"]+)"\s*,\s*import\.meta\.url\s*\)/g)) {
    found.push({ literal: m[1]!, resolved: NodePath.resolve(dir, m[1]!) })
  }
  for (const m of text.matchAll(/NodePath\.(?:resolve|join)\(\s*import\.meta\.dirname\s*,((?:\s*"[^"]*"\s*,?)+)\)/g)) {
    const parts = [...m[1]!.matchAll(/"([^"]*)"/g)].map((p) => p[1]!)
    found.push({ literal: parts.join(", "), resolved: NodePath.resolve(dir, ...parts) })
  }
  return found
}

const inside = (path: string) => path === root || path.startsWith(`${root}${NodePath.sep}`)

describe("the repository stands alone", () => {
  it("finds the files it checks, and the paths they resolve from their own location", () => {
    assert.isAtLeast(files.length, 200)
    // The check sees the pattern it guards: this very file resolves the repository root from its location.
    assert.deepStrictEqual(
      pathsFromOwnLocation("test/standalone/StandsAlone.test.ts", read("test/standalone/StandsAlone.test.ts"))[0]
        ?.resolved,
      root
    )
    assert.isFalse(inside(NodePath.resolve(root, "..", "shared", "spec")))
  })

  it("no path a file resolves from its own location leaves the repository", () => {
    const outside = files.flatMap((file) =>
      pathsFromOwnLocation(file, read(file))
        .filter((p) => !inside(p.resolved))
        .map((p) => `${file}: "${p.literal}"`)
    )
    assert.deepStrictEqual(outside, [])
  })

  it("nothing names the folders that sat beside the repository", () => {
    const neighbours = [["..", "shared"].join("/"), ["..", ".library"].join("/"), ["", "work", ""].join("/")]
    const naming = files.flatMap((file) => {
      const text = read(file)
      return neighbours.filter((n) => text.includes(n)).map((n) => `${file}: ${n}`)
    })
    assert.deepStrictEqual(naming, [])
  })

  it("each folder of copied fixtures says where its files came from and under which license", () => {
    const fixtures = NodePath.join(root, "test/fixtures")
    const copied = NodeFs.readdirSync(fixtures, { withFileTypes: true }).filter(
      (e) => e.isDirectory() && e.name === "siwe"
    )
    assert.strictEqual(copied.length, 1)
    for (const dir of copied) {
      const note = NodeFs.readFileSync(NodePath.join(fixtures, dir.name, "README.md"), "utf8")
      assert.match(note, /https:\/\/github\.com\/\S+/, `${dir.name}: source`)
      assert.match(note, /license/i, `${dir.name}: license`)
    }
  })
})
