// GraphiQL for the indexer's GraphQL at GET /v1/graphql (served by src/indexer/graphql/GraphiqlAssets.ts). Bundled with its
// Monaco workers by scripts/build-graphiql.ts into dist/graphiql/ and served from there: nothing comes from a CDN.
// Queries and mutations are POSTed to this page's URL; subscriptions go over graphql-ws on the same path.
import { createGraphiQLFetcher } from "@graphiql/toolkit"
import { GraphiQL } from "graphiql"
import "graphiql/style.css"
import { createClient } from "graphql-ws"
import { createRoot } from "react-dom/client"
import "./page.css"

// Hashed file names of the workers, defined by the build (they are built first, as their own bundles).
/* global GRAPHIQL_WORKERS */
globalThis.MonacoEnvironment = {
  getWorker(_workerId, label) {
    const file = GRAPHIQL_WORKERS[label] ?? GRAPHIQL_WORKERS.editor
    return new Worker(new URL(file, import.meta.url))
  }
}

const http = new URL(location.pathname, location.href)
const ws = new URL(http)
ws.protocol = http.protocol === "https:" ? "wss:" : "ws:"

const fetcher = createGraphiQLFetcher({
  url: http.href,
  wsClient: createClient({ url: ws.href, lazy: true }),
  // The server answers plain JSON (no @defer/@stream), so the multipart reader is not needed.
  enableIncrementalDelivery: false
})

const defaultQuery = `# The indexer's GraphQL: ${http.pathname}. The book icon on the left opens the schema (docs);
# Ctrl-Space completes; Ctrl-Enter runs. Subscriptions (launches, swaps, poolUpdated) run over graphql-ws.
{
  _meta {
    version
    database
    ready
  }
}
`

createRoot(document.getElementById("graphiql")).render(<GraphiQL fetcher={fetcher} defaultQuery={defaultQuery} />)
