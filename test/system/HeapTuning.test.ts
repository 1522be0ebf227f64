import { spawnSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { assert, describe, it } from "vitest"
import { MAX_NEW_SPACE_BYTES, START_NODE_FLAGS } from "../../src/platform/system/HeapTuning.ts"

/**
 * The bound on V8's young generation (src/platform/system/HeapTuning.ts; issue 23 H2, RSS after an `/mcp` flood):
 * `npm start` and the systemd unit give the app START_NODE_FLAGS, and with them a burst of short-lived allocations, as a request flood
 * makes, keeps the young generation within MAX_NEW_SPACE_BYTES, where V8 alone grows it to several times that.
 */
const root = NodePath.resolve(import.meta.dirname, "../..")

/** A burst of short-lived objects with a rolling window of survivors (requests in flight); prints the new space's size. */
const burst = `
import v8 from "node:v8"
const inFlight = []
for (let i = 0; i < 1_000_000; i++) {
  inFlight.push({ i, payload: new Array(64).fill(i), text: "request " + i })
  if (inFlight.length > 2_000) inFlight.shift()
}
console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size)
`

const newSpaceAfterBurst = (flags: ReadonlyArray<string>) => {
  const run = spawnSync(process.execPath, [...flags, "--input-type=module", "-e", burst], { encoding: "utf8" })
  assert.strictEqual(run.status, 0, run.stderr)
  return Number(run.stdout.trim())
}

describe("the app's young generation is bounded", () => {
  it("npm start and the systemd unit run the app with START_NODE_FLAGS", () => {
    const start: string = JSON.parse(NodeFs.readFileSync(NodePath.join(root, "package.json"), "utf8")).scripts.start
    const app = start
      .split("&&")
      .map((command) => command.trim().split(/\s+/u))
      .at(-1)!
    assert.deepStrictEqual(app, ["node", ...START_NODE_FLAGS, "dist/src/main.js"])
    const unit = NodeFs.readFileSync(NodePath.join(root, "scripts/systemd/fire-api@.service"), "utf8")
    const execStart = /^ExecStart=(.*)$/mu.exec(unit)![1]!.split(/\s+/u)
    assert.deepStrictEqual(execStart.slice(1, execStart.indexOf("dist/src/main.js")), [...START_NODE_FLAGS])
  })

  it("with START_NODE_FLAGS a burst of allocations keeps it within MAX_NEW_SPACE_BYTES; V8 alone grows it past", () => {
    assert.isAtMost(newSpaceAfterBurst(START_NODE_FLAGS), MAX_NEW_SPACE_BYTES)
    assert.isAbove(newSpaceAfterBurst([]), MAX_NEW_SPACE_BYTES)
  })
})
