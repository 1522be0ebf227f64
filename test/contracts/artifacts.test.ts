/** The committed contracts/generated files must equal a fresh compile of contracts/*.sol. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { compileContracts, contractNames } from "../../scripts/compile-contracts.ts"

const repoRoot = fileURLToPath(new URL("../../", import.meta.url))

describe("contracts/generated", () => {
  it("is current: equals a fresh compile byte for byte", async () => {
    const files = await compileContracts()
    expect(Object.keys(files).sort()).toEqual(
      [...contractNames.map((n) => `contracts/generated/${n}.ts`), "contracts/generated/index.ts"].sort()
    )
    for (const [path, content] of Object.entries(files)) {
      expect(readFileSync(join(repoRoot, path), "utf8"), `${path} is stale: run npm run contracts:build`).toBe(content)
    }
  }, 120_000)
})
