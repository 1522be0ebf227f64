import type { Server } from "node:http"
import type { Duplex } from "node:stream"

/**
 * Requests Node's HTTP parser refuses before any Effect code runs (request line or headers over 16 KiB, malformed
 * request line, bad header bytes). Node would answer a bare `431`/`400` with no body; we answer with the service's
 * error body, so clients (and the contract fuzz) only ever see one error shape, then close the connection (the
 * parser cannot resynchronise on it).
 */
const statusOf = (code: string | undefined): readonly [number, string, string] =>
  code === "HPE_HEADER_OVERFLOW"
    ? [431, "HEADERS_TOO_LARGE", "Request line and headers exceed 16 KiB"]
    : code === "HPE_REQUEST_TIMEOUT" || code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "REQUEST_TIMEOUT", "The request was not received in time"]
      : [400, "BAD_REQUEST", "Malformed HTTP request"]

const reasons: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large"
}

export const answerClientErrors = (server: Server, bodyOf: (code: string, message: string) => unknown) =>
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy()
      return
    }
    const [status, code, message] = statusOf(error.code)
    const body = JSON.stringify(bodyOf(code, message))
    socket.end(
      `HTTP/1.1 ${status} ${reasons[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`
    )
  })
