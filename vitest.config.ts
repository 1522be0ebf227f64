import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Real PostgreSQL (and, for chain tests, a real anvil) are started once here; each test file gets its own database.
    globalSetup: ["test/setup/database.ts", "test/setup/devnet.ts", "test/setup/graphiql.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
