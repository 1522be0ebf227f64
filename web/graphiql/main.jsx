// GraphiQL for the indexer's GraphQL at GET /v1/graphql (served by src/indexer/graphql/GraphiqlAssets.ts). Bundled with its
// Monaco workers by scripts/build-graphiql.ts into dist/graphiql/ and served from there: nothing comes from a CDN.
// Queries and mutations are POSTed to this page's URL; subscriptions go over graphql-ws on the same path.
import { createGraphiQLFetcher } from "@graphiql/toolkit"
import { GraphiQL } from "graphiql"
import "graphiql/style.css"
import { parse } from "graphql"
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

const toolkitFetcher = createGraphiQLFetcher({
  url: http.href,
  wsClient: createClient({ url: ws.href, lazy: true }),
  // The server answers plain JSON (no @defer/@stream), so the multipart reader is not needed.
  enableIncrementalDelivery: false
})

// The toolkit sends an operation over graphql-ws when the `documentAST` GraphiQL passes says it is a subscription, but
// GraphiQL re-parses the editor only 100 ms after the last edit: an operation run sooner (a click or Ctrl-Enter right
// after typing) was judged by the previous text, so a subscription typed over a query went out as an HTTP POST and came
// back as an error instead of events. The transport is chosen from the text being sent; text that does not parse goes
// over HTTP, which answers with the syntax error.
const documentOf = (query) => {
  try {
    return parse(query)
  } catch {
    return undefined
  }
}
const fetcher = (params, options) => toolkitFetcher(params, { ...options, documentAST: documentOf(params.query) })

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
