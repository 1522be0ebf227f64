import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { crc32 } from "node:zlib"
import sharp from "sharp"
import { GRAPHQL_BODY_BYTES, JSON_BODY_BYTES, MULTIPART_ENVELOPE_BYTES } from "../../src/platform/http/BodyLimits.ts"
import { baseUrl, fetchJson, TestServices } from "../support/TestServer.ts"
import { bearer } from "../support/http.ts"
import { AccountsServer, tokenFor, newAccount } from "../sessions/support.ts"

/**
 * Request body limits per route (src/platform/http/BodyLimits.ts, docs/SECURITY.md threat "large bodies"): a JSON route, an
 * image upload route, the exchange's JSON route and GraphQL each take a body exactly at their limit and refuse one
 * byte more with 413 PAYLOAD_TOO_LARGE in their service's error shape; the upload's limit is its own (IMAGE_MAX_BYTES
 * plus the multipart envelope), larger than the JSON routes'. The served OpenAPI documents state the limits.
 */
const IMAGE_MAX_BYTES = 200_000
const UPLOAD_LIMIT = IMAGE_MAX_BYTES + MULTIPART_ENVELOPE_BYTES

/** `json` padded with trailing spaces (still valid JSON) to exactly `size` bytes. */
const padded = (json: unknown, size: number) => {
  const text = JSON.stringify(json)
  assert.isAtMost(text.length, size)
  return text + " ".repeat(size - text.length)
}

const post = (url: string, body: string | Uint8Array, headers: Record<string, string>) =>
  fetchJson(url, { method: "POST", body: body as RequestInit["body"], headers })

/** The same body without a Content-Length (chunked): the limit is applied while reading. */
const postStreamed = (url: string, body: string, headers: Record<string, string>) =>
  Effect.promise(async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body))
        controller.close()
      }
    })
    const response = await fetch(url, { method: "POST", body: stream, headers, duplex: "half" } as RequestInit)
    return { status: response.status, body: (await response.json()) as any }
  })

const boundary = "----fire-body-limit-test"
const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`
const partTail = `\r\n--${boundary}--\r\n`
/** A multipart body with one file part, its length exactly `size` bytes when `size` is given (else fitting `file`). */
const multipart = (file: Uint8Array, size = partHead.length + file.length + partTail.length) => {
  const body = Buffer.alloc(size)
  body.write(partHead, 0, "latin1")
  Buffer.from(file).copy(body, partHead.length, 0, Math.min(file.length, size - partHead.length - partTail.length))
  body.write(partTail, size - partTail.length, "latin1")
  return body
}
const multipartType = { "content-type": `multipart/form-data; boundary=${boundary}` }

/** A valid PNG of exactly `size` bytes: a noisy picture, padded by a private ancillary chunk before IEND. */
const pngOfSize = (size: number) =>
  Effect.promise(async () => {
    const width = 180
    const raw = Buffer.alloc(width * width * 3)
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) % 251
    const png = await sharp(raw, { raw: { width, height: width, channels: 3 } })
      .png()
      .toBuffer()
    const data = Buffer.alloc(size - png.length - 12, 0x20)
    const type = Buffer.from("prVt", "latin1")
    const chunk = Buffer.alloc(12 + data.length)
    chunk.writeUInt32BE(data.length, 0)
    type.copy(chunk, 4)
    data.copy(chunk, 8)
    chunk.writeUInt32BE(crc32(Buffer.concat([type, data])), 8 + data.length)
    const iend = png.length - 12
    return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)])
  })

const isTooLarge = (res: { status: number; body: any }, maxBytes: number, what: string) => {
  assert.strictEqual(res.status, 413, `${what}: ${JSON.stringify(res.body).slice(0, 200)}`)
  assert.strictEqual(res.body.code, "PAYLOAD_TOO_LARGE", what)
  assert.strictEqual(res.body.details.maxBytes, maxBytes, what)
}

layer(AccountsServer({ IMAGE_MAX_BYTES: String(IMAGE_MAX_BYTES) }), {
  timeout: "90 seconds",
  excludeTestServices: true
})("client API: a JSON route and an upload route", (it) => {
  it.effect(`JSON route: exactly ${JSON_BODY_BYTES} bytes is read; one more → 413 (declared or streamed)`, () =>
    Effect.gen(function* () {
      const url = `${yield* baseUrl("client")}/v1/tokens/batch/images`
      const json = { "content-type": "application/json" }
      const payload = { addresses: [`0x${"00".repeat(19)}01`] }
      const atLimit = yield* post(url, padded(payload, JSON_BODY_BYTES), json)
      assert.strictEqual(atLimit.status, 200, JSON.stringify(atLimit.body))
      const over = padded(payload, JSON_BODY_BYTES + 1)
      const declared = yield* post(url, over, json)
      isTooLarge(declared, JSON_BODY_BYTES, "declared")
      assert.isString(declared.body.message)
      isTooLarge(yield* postStreamed(url, over, json), JSON_BODY_BYTES, "streamed")
    })
  )

  it.effect(
    "upload route: its own limit; an image just under IMAGE_MAX_BYTES is stored, a body past the route's limit → 413 unread",
    () =>
      Effect.gen(function* () {
        const url = `${yield* baseUrl("client")}/v1/users/profile/image`
        const headers = { ...bearer(yield* tokenFor(newAccount())), ...multipartType }
        // A file just under IMAGE_MAX_BYTES (the multipart parser counts the part's headers into that limit, ~100
        // bytes here): three times the JSON routes' limit, accepted here.
        const largest = yield* pngOfSize(IMAGE_MAX_BYTES - 1024)
        const stored = yield* post(url, multipart(largest), headers)
        assert.strictEqual(stored.status, 200, JSON.stringify(stored.body))
        assert.match(stored.body.image, /^\/v1\/images\/[0-9a-f]{64}\.webp$/)
        // A body of exactly the route's limit passes it and is read: the file in it is then over IMAGE_MAX_BYTES.
        const atLimit = yield* post(url, multipart(new Uint8Array(UPLOAD_LIMIT), UPLOAD_LIMIT), headers)
        isTooLarge(atLimit, IMAGE_MAX_BYTES, "at the route limit: the file limit answers")
        // One byte more is refused by the route's limit itself, from the Content-Length.
        const over = yield* post(url, multipart(new Uint8Array(UPLOAD_LIMIT), UPLOAD_LIMIT + 1), headers)
        isTooLarge(over, UPLOAD_LIMIT, "over the route limit")
      })
  )

  it.effect("the OpenAPI document states each route's body limit", () =>
    Effect.gen(function* () {
      const doc = (yield* fetchJson(`${yield* baseUrl("client")}/docs/openapi.json`)).body
      assert.include(doc.paths["/v1/tokens/batch/images"].post.description, "Request body limit: 65,536 bytes")
      assert.include(
        doc.paths["/v1/users/profile/image"].post.description,
        `Request body limit: ${UPLOAD_LIMIT.toLocaleString("en-US")} bytes`
      )
      assert.notInclude(doc.paths["/v1/users/me"].get.description ?? "", "Request body limit")
    })
  )
})

layer(TestServices(["exchange", "indexer"]), { timeout: "90 seconds", excludeTestServices: true })(
  "exchange JSON route and GraphQL",
  (it) => {
    it.effect(
      "exchange POST /api/v1/quote: at the limit it is decoded (400), one byte more → 413 in the exchange shape",
      () =>
        Effect.gen(function* () {
          const url = `${yield* baseUrl("exchange")}/api/v1/quote`
          const json = { "content-type": "application/json" }
          const atLimit = yield* post(url, padded({}, JSON_BODY_BYTES), json)
          assert.strictEqual(atLimit.status, 400, JSON.stringify(atLimit.body))
          const over = yield* post(url, padded({}, JSON_BODY_BYTES + 1), json)
          isTooLarge(over, JSON_BODY_BYTES, "exchange")
          assert.isString(over.body.error)
        })
    )

    it.effect(`GraphQL: its own limit (${GRAPHQL_BODY_BYTES} bytes), declared or streamed`, () =>
      Effect.gen(function* () {
        const url = `${yield* baseUrl("indexer")}/v1/graphql`
        const json = { "content-type": "application/json" }
        const query = { query: "{ __typename }" }
        const atLimit = yield* post(url, padded(query, GRAPHQL_BODY_BYTES), json)
        assert.strictEqual(atLimit.status, 200, JSON.stringify(atLimit.body))
        assert.strictEqual(atLimit.body.data.__typename, "Query")
        const over = padded(query, GRAPHQL_BODY_BYTES + 1)
        isTooLarge(yield* post(url, over, json), GRAPHQL_BODY_BYTES, "declared")
        isTooLarge(yield* postStreamed(url, over, json), GRAPHQL_BODY_BYTES, "streamed")
      })
    )
  }
)
