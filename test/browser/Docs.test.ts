import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"
import { Chromium } from "./Chromium.ts"

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")

interface Operation {
  readonly tags?: ReadonlyArray<string>
  readonly summary?: string
}

/** The tags of a service's OpenAPI document, and the summary of the first operation under `tag`. */
const documentOf = (service: "client" | "exchange", tag: string) =>
  Effect.gen(function* () {
    const base = yield* baseUrl(service)
    const { body } = yield* fetchJson(`${base}/docs/openapi.json`)
    const tags = (body.tags as ReadonlyArray<{ name: string }>).map((t) => t.name)
    const operations = Object.values(body.paths as Record<string, Record<string, Operation>>).flatMap((p) =>
      Object.values(p)
    )
    const summary = operations.find((o) => o.tags?.includes(tag) === true && o.summary !== undefined)?.summary
    if (summary === undefined) throw new Error(`no operation with a summary under ${tag} in the ${service} document`)
    return { base, tags, summary }
  })

/**
 * The Scalar reference at `/docs` of the client and exchange APIs, opened offline: its sidebar lists every tag of the
 * API's OpenAPI document, opening a tag lists its operations, and choosing one shows its details (its heading and
 * responses); the page asks nothing of another host and logs no error.
 */
layer(Layer.merge(TestServices(["client", "exchange"]), Chromium.layer), {
  timeout: "120 seconds",
  excludeTestServices: true
})("/docs in a browser", (it) => {
  for (const [service, tag] of [
    ["client", "Launches"],
    ["exchange", "pools"]
  ] as const) {
    it.effect(`${service} /docs lists the operations and shows one's details, offline`, () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { base, tags, summary } = yield* documentOf(service, tag)
          const { page, problems } = yield* (yield* Chromium).open(`${base}/docs`)
          yield* Effect.promise(async () => {
            const sidebar = page.getByRole("navigation", { name: `Sidebar for fire-api ${service} API` })
            await sidebar.waitFor()
            for (const name of tags)
              await sidebar.getByRole("button", { name: new RegExp(`^(Open|Close) Group ${name}$`) }).waitFor()
            await sidebar.getByRole("button", { name: `Open Group ${tag}` }).click()
            await sidebar.getByRole("button", { name: new RegExp(`^${escapeRegExp(summary)} HTTP Method`) }).click()
            const details = page.getByRole("region", { name: summary, exact: true })
            await details.getByRole("heading", { name: summary }).waitFor()
            await details.getByText("Responses", { exact: true }).first().waitFor()
          })
          assert.strictEqual(problems().join("\n"), "", "console errors or requests off this machine")
        })
      )
    )
  }
})
