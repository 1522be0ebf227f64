import { Context, Effect, Layer, type Scope } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

/** Debian's `chromium` package (`apt-get install -y chromium`; .ci/run installs it when missing). */
export const chromiumPath = "/usr/bin/chromium"

const isLocal = (url: string) => {
  const { protocol, hostname } = new URL(url)
  if (protocol === "data:" || protocol === "blob:" || protocol === "about:") return true
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]"
}

export interface OpenedPage {
  readonly page: Page
  /** Console errors, uncaught page errors and blocked (non-local) requests seen so far, as readable lines. */
  readonly problems: () => ReadonlyArray<string>
}

/**
 * Headless Chromium with a fresh profile, offline: every request that does not go to this machine is aborted (and
 * reported), so a page that works here works without internet. `open` starts a page that records console errors,
 * uncaught exceptions and blocked requests.
 */
export class Chromium extends Context.Service<
  Chromium,
  {
    readonly context: BrowserContext
    /** A new page at `url`, closed with the scope. */
    readonly open: (url: string) => Effect.Effect<OpenedPage, never, Scope.Scope>
  }
>()("test/browser/Chromium") {
  static readonly layer = Layer.effect(
    Chromium,
    Effect.gen(function* () {
      if (!NodeFs.existsSync(chromiumPath)) {
        return yield* Effect.die(
          new Error(`${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium)`)
        )
      }
      const profile = yield* Effect.acquireRelease(
        Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-test-chromium-"))),
        (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
      )
      const context = yield* Effect.acquireRelease(
        Effect.promise(() =>
          chromium.launchPersistentContext(profile, {
            executablePath: chromiumPath,
            headless: true,
            args: [
              "--headless",
              "--no-sandbox",
              "--disable-gpu",
              "--disable-quic",
              "--no-first-run",
              "--disable-background-networking",
              "--disable-component-update",
              "--disable-sync"
            ],
            viewport: { width: 1400, height: 900 }
          })
        ),
        (context) => Effect.promise(() => context.close())
      )
      const blocked: Array<string> = []
      yield* Effect.promise(() =>
        context.route("**/*", (route) => {
          const url = route.request().url()
          if (isLocal(url)) return route.continue()
          blocked.push(url)
          return route.abort("internetdisconnected")
        })
      )
      const open = (url: string) =>
        Effect.acquireRelease(
          Effect.promise(async () => {
            const page = await context.newPage()
            const seen: Array<string> = []
            const blockedBefore = blocked.length
            page.on("console", (message) => {
              if (message.type() === "error") seen.push(`console error: ${message.text()} (${message.location().url})`)
            })
            page.on("pageerror", (error) => seen.push(`uncaught: ${error.message}`))
            await page.goto(url)
            return {
              page,
              problems: () => [...seen, ...blocked.slice(blockedBefore).map((u) => `blocked request to ${u}`)]
            }
          }),
          ({ page }) => Effect.promise(() => page.close())
        )
      return Chromium.of({ context, open })
    })
  )
}
