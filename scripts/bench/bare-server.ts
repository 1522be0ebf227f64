import { readFileSync } from "node:fs"
import { createServer } from "node:http"

/**
 * The baseline of the HTTP benchmarks: bare node:http answering a JSON body with its type and length. Given a body,
 * it answers it to any request; given `--bodies=FILE` (JSON, request target → body), it answers each target its own
 * body (one Map lookup, as a cache would) and 404 to the others: the same bytes as the app's rotating answers.
 */
const arg = process.argv[2] ?? "{}"
/**
 * `--encode-once`: each body is UTF-8 encoded once here and every answer sends those bytes, as the apps' cache fast
 * lanes send their stored bytes (src/platform/http/CachedFastLane.ts). Without it each answer encodes the string again
 * (the baseline the benchmarks recorded so far), which for 9 KB bodies cost this server more CPU per answer than the
 * app's whole fast-lane answer (bench:client, docs/BENCHMARKS.md).
 */
const encodeOnce = process.argv.includes("--encode-once")
const stored = (body: string): string | Buffer => (encodeOnce ? Buffer.from(body, "utf8") : body)
const bodies = arg.startsWith("--bodies=")
  ? new Map(
      Object.entries(JSON.parse(readFileSync(arg.slice("--bodies=".length), "utf8")) as Record<string, string>).map(
        ([target, body]) => [target, stored(body)] as const
      )
    )
  : undefined
const single = stored(arg)
const server =
  bodies === undefined
    ? createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(single) })
        res.end(single)
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
