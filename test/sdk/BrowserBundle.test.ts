import { assert, describe, it } from "@effect/vitest"
import { build } from "esbuild"
import * as NodePath from "node:path"

const root = NodePath.resolve(import.meta.dirname, "../..")

/**
 * The typed client (`fire-api/client`, src/sdk) is offered for browsers: bundled for the browser it must build, with
 * no Node built-in among its imports and nothing of the server (SQL, layers/, scripts/, workers/) among its inputs.
 * The boundary check (npm run check:boundaries) states the same rule for the contracts the SDK is made of.
 */
describe("the SDK in a browser", () => {
  it("bundles with esbuild --platform=browser, without Node built-ins or server code", async () => {
    const result = await build({
      entryPoints: [NodePath.join(root, "src/sdk/index.ts")],
      absWorkingDir: root,
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent"
    })
    assert.deepStrictEqual(result.errors, [])
    const inputs = Object.keys(result.metafile.inputs)
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path))
    assert.deepStrictEqual(
      imports.filter((path) => path.startsWith("node:")),
      [],
      "Node built-ins imported"
    )
    assert.deepStrictEqual(
      inputs.filter((path) =>
        /^(layers|scripts|workers)\/|effect\/dist\/.*\/sql\/|@effect\/sql|@effect\/platform-node/.test(path)
      ),
      [],
      "server code bundled"
    )
    assert.isTrue(inputs.includes("src/client-api/ClientApi.ts"), "the client API contract is in the bundle")
  })
})
