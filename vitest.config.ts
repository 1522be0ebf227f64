import { configDefaults, defineConfig } from "vitest/config"

/**
 * Tests that need no PostgreSQL, no anvil and no server: pure logic, fixtures, static checks of the tree. They run
 * alone as `npm run test:unit` in seconds, with no database reachable. A test file that needs a database, a chain or
 * a running service belongs to `integration` (every file not listed here); moving one here is checked by running
 * `npm run test:unit` with DATABASE_URL pointing to a closed port.
 */
const unit = [
  "test/bench/progress.test.ts",
  "test/bench/quote-requests.test.ts",
  "test/build/SourceFingerprint.test.ts",
  "test/contracts/artifacts.test.ts",
  "test/graphql/GraphiqlAssets.test.ts",
  "test/indexer/BackfillProgress.test.ts",
  "test/indexer/Bloom.test.ts",
  "test/indexer/ChainReader.test.ts",
  "test/indexer/Decision.test.ts",
  "test/indexer/Discover.test.ts",
  "test/indexer/FastDecode.test.ts",
  "test/indexer/RepeatedRollback.test.ts",
  "test/indexer/RpcError.test.ts",
  "test/listings/ClaimTypedData.test.ts",
  "test/listings/Position.test.ts",
  "test/mcp/InitializeBounds.test.ts",
  "test/mcp/McpSessionTable.test.ts",
  "test/system/HeapTuning.test.ts",
  "test/mcp/SpecCoverage.test.ts",
  "test/mcp/ToolDerivation.test.ts",
  "test/observability/QuoteMetrics.test.ts",
  "test/push/BlockedAddresses.test.ts",
  "test/push/PushOutcome.test.ts",
  "test/routing/**/*.test.ts",
  "test/sdk/BrowserBundle.test.ts",
  "test/search/MemoryIndex.test.ts",
  "test/search/TermDictionary.test.ts",
  "test/security/CallerIpKeys.test.ts",
  "test/security/SqlReview.test.ts",
  "test/sessions/SessionConfig.test.ts",
  "test/sessions/SignerRecovery.test.ts",
  "test/sessions/SiweComplete.test.ts",
  "test/sessions/SiweMessage.test.ts",
  "test/social/GiftRules.test.ts",
  "test/social/GiftsClock.test.ts",
  "test/standalone/StandsAlone.test.ts",
  "test/standalone/TestsRunAlone.test.ts",
  "test/users/ImageSniff.test.ts"
]

// The browser tests need Chromium: their own command, `npm run test:browser` (vitest.browser.config.ts).
const exclude = [...configDefaults.exclude, "test/browser/**"]

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: unit, exclude } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...exclude, ...unit],
          // Real PostgreSQL (and, for chain tests, a real anvil) are started once here; each test file gets its own
          // database.
          globalSetup: ["test/setup/database.ts", "test/setup/devnet.ts", "test/setup/graphiql.ts"]
        }
      }
    ]
  }
})
