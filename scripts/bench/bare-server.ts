import { readFileSync } from "node:fs"
import { createServer } from "node:http"

/**
 * The baseline of the HTTP benchmarks: bare node:http answering a JSON body with its type and length. Given a body,
 * it answers it to any request; given `--bodies=FILE` (JSON, request target → body), it answers each target its own
 * body (one Map lookup, as a cache would) and 404 to the others: the same bytes as the app's rotating answers.
 */
const arg = process.argv[2] ?? "{}"
const bodies = arg.startsWith("--bodies=")
  ? new Map(Object.entries(JSON.parse(readFileSync(arg.slice("--bodies=".length), "utf8")) as Record<string, string>))
  : undefined
const server =
  bodies === undefined
    ? createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(arg) })
        res.end(arg)
      })
    : createServer((req, res) => {
        const body = bodies.get(req.url ?? "")
        if (body === undefined) {
          res.writeHead(404, { "content-length": 0 })
          res.end()
          return
        }
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        res.end(body)
      })
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
