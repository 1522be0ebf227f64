import { configDefaults, defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The browser tests need Chromium: their own command, `npm run test:browser` (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, "test/browser/**"],
    // Real PostgreSQL (and, for chain tests, a real anvil) are started once here; each test file gets its own database.
    globalSetup: ["test/setup/database.ts", "test/setup/devnet.ts", "test/setup/graphiql.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
