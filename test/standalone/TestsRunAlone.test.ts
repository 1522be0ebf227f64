import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { findSharedTestState } from "../../scripts/check-tests-alone.ts"

/**
 * Any single test runs alone (`npx vitest run -t "<name>"`): no test leaves a variable for another to read; suite
 * setup is in a scoped layer or a beforeAll (scripts/check-tests-alone.ts). First the check on small sources, each
 * with the pattern or its fix; then the check over every test file of the repository.
 */

const names = (source: string) => findSharedTestState("x.test.ts", source).map((s) => s.name)

describe("check-tests-alone", () => {
  it("finds a module-level let that the first test sets and the second reads", () => {
    const source = `
      let token: string
      it("creates", async () => { token = await create() })
      it("reads", async () => { expect(await read(token)).toBe(1) })`
    assert.deepStrictEqual(names(source), ["token"])
  })

  it("finds it through a helper the other test calls, in an @effect/vitest layer block, and in a holder object", () => {
    const source = `
      let d: Devnet
      const state: { id?: string } = {}
      const check = () => d.head
      layer(TestDatabase)("suite", (it) => {
        it.effect("starts", () => Effect.sync(() => { d = start(); state.id = "a" }))
        it.effect("checks", () => Effect.sync(() => { check(); use(state.id) }))
      })`
    assert.deepStrictEqual(names(source), ["d", "state"])
  })

  it("accepts setup in beforeAll, a variable the test declares itself, and a helper only the same test calls", () => {
    const source = `
      let shared: number
      let once: number
      beforeAll(() => { shared = 1 })
      const onlyFirst = () => once + 1
      it("a", () => { let shared = 2; shared = 3; once = 1; onlyFirst() })
      it("b", () => { expect(shared).toBe(1) })`
    assert.deepStrictEqual(names(source), [])
  })

  it("no test file of the repository leaves state for another", () => {
    const root = NodePath.resolve(import.meta.dirname, "../..")
    const files = execFileSync("git", ["ls-files", "test/**/*.test.ts"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((f) => f !== "")
    assert.isAbove(files.length, 100)
    const found = files.flatMap((f) => findSharedTestState(f, NodeFs.readFileSync(NodePath.join(root, f), "utf8")))
    assert.deepStrictEqual(
      found.map((s) => `${s.file}:${s.line} ${s.name} (set in "${s.assignedIn}", read at ${s.readAt.join(", ")})`),
      []
    )
  })
})
