import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Page } from "playwright-core"
import { baseUrl, TestServices } from "../support/TestServer.ts"
import { Chromium } from "./Chromium.ts"

const queryEditor = (page: Page) => page.locator(".graphiql-query-editor .view-lines")
/** The response pane's text (Monaco renders spaces as no-break spaces; `\s` matches both). */
const response = (page: Page, text: RegExp) => page.locator(".graphiql-response .view-lines", { hasText: text })

/**
 * Replaces the operation in the query editor with `query` (inserted as one text) and waits until the editor shows it.
 */
const setQuery = async (page: Page, query: string) => {
  await queryEditor(page).click()
  await page.keyboard.press("Control+A")
  await page.keyboard.insertText(query)
  // Brackets Monaco closed on its own end up after the cursor.
  await page.keyboard.press("Shift+Control+End")
  await page.keyboard.press("Delete")
  // Monaco shows spaces as no-break spaces, which `\s` matches.
  const shown = query.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&").replaceAll(" ", "\\s")
  await queryEditor(page)
    .filter({ hasText: new RegExp(`^\\s*${shown}\\s*$`, "u") })
    .waitFor()
}

const openGraphiql = Effect.gen(function* () {
  const opened = yield* (yield* Chromium).open(`${yield* baseUrl("indexer")}/v1/graphql`)
  yield* Effect.promise(() => queryEditor(opened.page).filter({ hasText: "{" }).waitFor())
  return opened
})

/**
 * GraphiQL at the indexer's GET /v1/graphql, offline (every request off this machine is aborted, and any console error
 * fails): a query runs and its result shows; the schema explorer and completion come from the server's schema.
 */
layer(Layer.merge(TestServices(["indexer"]), Chromium.layer), { timeout: "120 seconds", excludeTestServices: true })(
  "GraphiQL in a browser",
  (it) => {
    it.effect("runs a query and shows its result", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { page, problems } = yield* openGraphiql
          yield* Effect.promise(async () => {
            await setQuery(page, "query { _meta { database ready } }")
            await page.getByRole("button", { name: /^Execute query/ }).click()
            await response(page, /"database":\s*"up"/).waitFor()
          })
          assert.strictEqual(problems().join("\n"), "", "console errors or requests off this machine")
        })
      )
    )

    it.effect("the schema explorer shows the root types and fields; the editor completes field names", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { page, problems } = yield* openGraphiql
          yield* Effect.promise(async () => {
            await page.getByRole("button", { name: "Show Documentation Explorer" }).click()
            const docs = page.getByRole("region", { name: "Documentation Explorer" })
            await docs.getByRole("link", { name: "Subscription", exact: true }).click()
            await docs.getByText("launches", { exact: true }).first().waitFor()
            await setQuery(page, "query { _me")
            await page.keyboard.press("Control+Space")
            await page
              .getByRole("listbox", { name: "Suggest" })
              .getByRole("option", { name: /^_meta/ })
              .waitFor()
          })
          assert.strictEqual(problems().join("\n"), "", "console errors or requests off this machine")
        })
      )
    )
  }
)
