import { defineConfig } from "vitest/config"

/**
 * `npm run test:browser`: the pages people open (/docs, GraphiQL) in headless Chromium (/usr/bin/chromium, Debian's
 * `chromium` package; .ci/run installs it), offline. Kept out of `npm test`, which needs no browser.
 */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    globalSetup: ["test/setup/database.ts", "test/setup/devnet.ts", "test/setup/graphiql.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
