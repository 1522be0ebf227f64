import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import type { Page } from "playwright-core"
import { FireLaunchAbi } from "../../contracts/generated/FireLaunch.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"
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

const gql = (query: string) =>
  Effect.flatMap(baseUrl("indexer"), (base) =>
    fetchJson(`${base}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query })
    })
  )

/** Live subscription readers on the server (src/indexer/graphql/Subscriptions.ts). */
const upstreams = gql("{ _meta { subscriptionUpstreams } }").pipe(
  Effect.map((r) => r.body.data._meta.subscriptionUpstreams as number)
)

/**
 * Resolves once the page sends a graphql-ws `subscribe` frame; fails as soon as it POSTs a subscription over HTTP
 * instead (answered 400 SUBSCRIPTION_OVER_HTTP). Listens from the call on: call it as the operation is run.
 */
const subscribeSent = (page: Page) =>
  new Promise<void>((resolve, reject) => {
    page.on("websocket", (socket) =>
      socket.on("framesent", (frame) => {
        if ((JSON.parse(String(frame.payload)) as { type?: string }).type === "subscribe") resolve()
      })
    )
    page.on("request", (request) => {
      const body = request.method() === "POST" ? (request.postData() ?? "") : ""
      if (/^\{"query":"\s*subscription\b/u.test(body))
        reject(new Error(`the page sent the subscription over HTTP: ${body}`))
    })
  })

const ignite = (name: string) =>
  Effect.flatMap(AnvilChain, (anvil) =>
    Effect.promise(() =>
      anvil.sender.write(anvil.accounts[7]!, anvil.deployments.launchpad!.fireLaunch, FireLaunchAbi, "ignite", [
        name,
        name.toUpperCase()
      ])
    )
  )

/**
 * GraphiQL at the indexer's GET /v1/graphql, offline (every request off this machine is aborted, and any console error
 * fails): a query runs and its result shows; the schema explorer and completion come from the server's schema; a
 * subscription started in the page shows the event of a launch made on the devnet afterwards.
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

    it.effect("a subscription shows the event of a launch made after it started (graphql-ws)", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { page, problems } = yield* openGraphiql
          const before = yield* upstreams
          // Typed with a typo, which is fixed and run at once (Ctrl-Enter right after the last keystroke): GraphiQL
          // re-parses the editor only 100 ms after an edit, and the operation must still go over graphql-ws.
          yield* Effect.promise(async () => {
            await setQuery(page, "xsubscription { launches { token tokenInfo { symbol } } }")
            await page.keyboard.press("Control+Home")
            await Promise.all([
              subscribeSent(page),
              page.keyboard.press("Delete").then(() => page.keyboard.press("Control+Enter"))
            ])
          })
          // The server takes the subscription a few milliseconds after the frame: the launch is made once its reader
          // is live, or it could be committed before and never reach the page.
          yield* upstreams.pipe(
            Effect.repeat({ until: (n) => n >= before + 1, schedule: Schedule.exponential("10 millis", 1.5) }),
            Effect.timeout("10 seconds")
          )
          yield* ignite("Lumen")
          yield* Effect.promise(() => response(page, /"symbol":\s*"LUMEN"/).waitFor())
          assert.strictEqual(problems().join("\n"), "", "console errors or requests off this machine")
        })
      )
    )
  }
)
