import { afterAll, assert, describe, it } from "@effect/vitest"
import { HttpRouter } from "effect/http"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { gzipSync } from "node:zlib"
import { graphiqlAssets } from "../../src/indexer/graphql/GraphiqlAssets.ts"

const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-test-graphiql-"))
const { handler, dispose } = HttpRouter.toWebHandler(graphiqlAssets(dir), { disableLogger: true })
afterAll(async () => {
  await dispose()
  NodeFs.rmSync(dir, { recursive: true, force: true })
})

const get = (path: string) => handler(new Request(`http://localhost${path}`))

/** What scripts/build-graphiql.ts leaves: the files, a gzip copy of each text file, the manifest last. */
const writeBundle = (files: Record<string, string>) => {
  const types: Record<string, string> = {}
  for (const [name, text] of Object.entries(files)) {
    NodeFs.writeFileSync(NodePath.join(dir, name), text)
    NodeFs.writeFileSync(NodePath.join(dir, `${name}.gz`), gzipSync(text))
    types[name] = name.endsWith(".html") ? "text/html; charset=utf-8" : "text/javascript; charset=utf-8"
  }
  NodeFs.writeFileSync(NodePath.join(dir, "manifest.json"), JSON.stringify({ fingerprint: "test", files: types }))
}

describe("GraphiQL files (src/indexer/graphql/GraphiqlAssets.ts)", () => {
  it("answers 503 with what to run while no bundle is built, and serves one built while it runs", async () => {
    const missing = await get("/v1/graphql")
    assert.strictEqual(missing.status, 503)
    assert.include(await missing.text(), "npm run build:graphiql")

    writeBundle({ "index.html": "<p>one</p>", "main-ONE.js": "one()" })
    const page = await get("/v1/graphql")
    assert.strictEqual(page.status, 200)
    assert.strictEqual(await page.text(), "<p>one</p>")
    assert.strictEqual((await get("/v1/graphql/assets/main-ONE.js")).status, 200)

    // A rebuild replaces the bundle: the new page and files are served, the old files are gone.
    NodeFs.rmSync(NodePath.join(dir, "main-ONE.js"))
    writeBundle({ "index.html": "<p>two</p>", "main-TWO.js": "two()" })
    assert.strictEqual(await (await get("/v1/graphql")).text(), "<p>two</p>")
    assert.strictEqual(await (await get("/v1/graphql/assets/main-TWO.js")).text(), "two()")
    assert.strictEqual((await get("/v1/graphql/assets/main-ONE.js")).status, 404)
  })
})
