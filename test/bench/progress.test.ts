import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import { withProgress } from "../../scripts/bench/progress.ts"

/** The bench phases' progress lines (scripts/bench/progress.ts), on a fake clock. */
describe("bench progress lines", () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it("a line every 5 s while the phase runs, with what it counted; none after it ended", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setTimeout", "performance"] })
    const lines: Array<string> = []
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      lines.push(String(chunk))
      return true
    })
    let done = 0
    let finish: (value: string) => void = () => {}
    const phase = withProgress("bench:x swaps", () => new Promise<string>((resolve) => (finish = resolve)), {
      detail: () => `${done}/100 swaps`
    })
    done = 30
    await vi.advanceTimersByTimeAsync(5_000)
    done = 70
    await vi.advanceTimersByTimeAsync(5_000)
    finish("result")
    assert.strictEqual(await phase, "result")
    await vi.advanceTimersByTimeAsync(20_000)
    assert.deepStrictEqual(lines, ["[bench:x swaps] 5 s: 30/100 swaps\n", "[bench:x swaps] 10 s: 70/100 swaps\n"])
  })

  it("a phase shorter than the interval prints nothing; a failing phase fails and stops its lines", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setTimeout", "performance"] })
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true)
    assert.strictEqual(await withProgress("short", async () => 1), 1)
    const failing = withProgress("failing", () => Promise.reject(new Error("boom")))
    await failing.then(
      () => assert.fail("should fail"),
      (e: Error) => assert.strictEqual(e.message, "boom")
    )
    await vi.advanceTimersByTimeAsync(20_000)
    assert.strictEqual(write.mock.calls.length, 0)
  })
})
