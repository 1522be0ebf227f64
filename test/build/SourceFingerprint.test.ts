import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { buildNeeded, fingerprintFile, sourceFingerprint } from "../../scripts/build/SourceFingerprint.ts"

/** A project in a temp folder with the files the build reads, and a `dist/` as the build leaves it. */
const project = () => {
  const root = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-fingerprint-"))
  const write = (file: string, text: string) => {
    NodeFs.mkdirSync(NodePath.dirname(NodePath.join(root, file)), { recursive: true })
    NodeFs.writeFileSync(NodePath.join(root, file), text)
  }
  write("tsconfig.json", "{}")
  write("tsconfig.build.json", JSON.stringify({ include: ["src", "layers"] }))
  write("package.json", "{}")
  write("package-lock.json", "{}")
  write("src/main.ts", "console.log(1)\n")
  write("src/deep/a.ts", "export const a = 1\n")
  write("layers/App.ts", "export {}\n")
  const built = () => {
    write("dist/src/main.js", "console.log(1)\n")
    write("dist/graphiql/manifest.json", "{}\n")
    NodeFs.writeFileSync(fingerprintFile(root), `${buildNeeded(root).fingerprint}\n`)
  }
  return { root, write, built, cleanup: () => NodeFs.rmSync(root, { recursive: true, force: true }) }
}

describe("npm start builds only when the sources changed (scripts/build-if-changed.ts)", () => {
  it("a fresh clone builds; once built, nothing changed means no build", () => {
    const p = project()
    try {
      assert.strictEqual(buildNeeded(p.root).reason, "no build yet")
      p.built()
      assert.isUndefined(buildNeeded(p.root).reason)
    } finally {
      p.cleanup()
    }
  })

  it("an edit, a new file, a removed file, a tsconfig or lockfile change each rebuild; a touch does not", () => {
    const p = project()
    try {
      const changes: Array<[string, () => void]> = [
        ["edit", () => p.write("src/deep/a.ts", "export const a = 2\n")],
        ["new file", () => p.write("layers/New.ts", "export {}\n")],
        ["removed file", () => NodeFs.rmSync(NodePath.join(p.root, "src/main.ts"))],
        ["tsconfig", () => p.write("tsconfig.json", `{"compilerOptions":{}}`)],
        ["lockfile", () => p.write("package-lock.json", `{"v":2}`)],
        ["build includes", () => p.write("tsconfig.build.json", JSON.stringify({ include: ["src"] }))]
      ]
      for (const [name, change] of changes) {
        p.built()
        change()
        assert.strictEqual(buildNeeded(p.root).reason, "sources changed since the last build", name)
      }
      p.built()
      const later = new Date(Date.now() + 60_000)
      NodeFs.utimesSync(NodePath.join(p.root, "src/deep/a.ts"), later, later)
      assert.isUndefined(buildNeeded(p.root).reason, "same contents, newer time")
    } finally {
      p.cleanup()
    }
  })

  it("a deleted dist/ rebuilds even with its fingerprint in place; files outside the build's inputs do not count", () => {
    const p = project()
    try {
      p.built()
      p.write("README.md", "docs\n")
      p.write("src/node_modules/x/index.js", "1\n")
      assert.isUndefined(buildNeeded(p.root).reason)
      NodeFs.rmSync(NodePath.join(p.root, "dist/src/main.js"))
      assert.strictEqual(buildNeeded(p.root).reason, "no build yet")
    } finally {
      p.cleanup()
    }
  })

  it("a dist/ without GraphiQL's bundle rebuilds (the page would answer 503)", () => {
    const p = project()
    try {
      p.built()
      assert.isUndefined(buildNeeded(p.root).reason)
      NodeFs.rmSync(NodePath.join(p.root, "dist/graphiql"), { recursive: true })
      assert.strictEqual(buildNeeded(p.root).reason, "no build yet")
    } finally {
      p.cleanup()
    }
  })

  it("the fingerprint covers a file's path as well as its contents", () => {
    const p = project()
    try {
      const before = sourceFingerprint(p.root, ["src"])
      NodeFs.renameSync(NodePath.join(p.root, "src/deep/a.ts"), NodePath.join(p.root, "src/deep/b.ts"))
      assert.notStrictEqual(sourceFingerprint(p.root, ["src"]), before)
    } finally {
      p.cleanup()
    }
  })
})
