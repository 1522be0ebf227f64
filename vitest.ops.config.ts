import { defineConfig } from "vitest/config"

/**
 * `npm run test:ops`: the tests that need tools the project cannot bring from npm, kept out of `npm test` so that a
 * fresh clone passes it with nothing installed. test/operations/BackupRestore.ops.ts runs the machine's
 * `pg_dump`/`pg_restore` (at least the server's major version). .ci/run runs this where the tools exist.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.ops.ts"],
    globalSetup: ["test/setup/database.ts", "test/setup/devnet.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
