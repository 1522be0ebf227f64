import { createServer } from "node:http"

/** The baseline of `bench:http`: bare node:http answering the same JSON body as GET /healthz. */
const body = process.argv[2] ?? "{}"
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
