/**
 * A small self-contained query page for `GET /v1/graphql` (no CDN: these machines and many deployments are offline).
 * It posts the query to the same URL and shows the JSON answer.
 */
export const graphiqlPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>fire-api indexer · GraphQL</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; display: grid; grid-template-rows: auto 1fr; height: 100vh; }
  header { padding: 8px 12px; background: #1f1f24; color: #fff; display: flex; gap: 12px; align-items: center; }
  main { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; padding: 8px; min-height: 0; }
  textarea, pre { font: 13px/1.4 ui-monospace, monospace; margin: 0; padding: 8px; border: 1px solid #ccc; overflow: auto; }
  textarea { resize: none; }
  button { font: inherit; padding: 4px 12px; }
</style>
</head>
<body>
<header><strong>GraphQL</strong><span>POST /v1/graphql · subscriptions: graphql-ws (graphql-transport-ws) on ws://this-host/v1/graphql</span><button id="run">Run (Ctrl-Enter)</button></header>
<main>
  <div style="display:grid;grid-template-rows:2fr 1fr;gap:8px;min-height:0">
    <textarea id="query" spellcheck="false">{\n  _meta {\n    version\n    database\n  }\n}</textarea>
    <textarea id="variables" spellcheck="false" placeholder="variables (JSON)"></textarea>
  </div>
  <pre id="result"></pre>
</main>
<script>
  const $ = (id) => document.getElementById(id)
  async function run() {
    let variables
    try { variables = $("variables").value.trim() ? JSON.parse($("variables").value) : undefined }
    catch (e) { $("result").textContent = "variables: " + e.message; return }
    const res = await fetch(location.pathname, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: $("query").value, variables }) })
    $("result").textContent = JSON.stringify(await res.json(), null, 2)
  }
  $("run").onclick = run
  document.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run() })
</script>
</body>
</html>
`
