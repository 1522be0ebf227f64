import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import sharp from "sharp"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { baseUrl } from "../support/TestServer.ts"
import { bearer, client } from "../support/http.ts"
import { AccountsServer, newAccount, tokenFor } from "../sessions/support.ts"

const IMAGE_MAX_BYTES = 200_000

/** A noisy picture (so it does not compress to nothing), in the given format, with metadata when asked. */
const picture = (format: "png" | "jpeg" | "gif" | "webp", width = 1200, height = 800, metadata = false) =>
  Effect.promise(() => {
    const raw = Buffer.alloc(width * height * 3)
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) % 251
    let image = sharp(raw, { raw: { width, height, channels: 3 } }).resize(width, height)
    if (metadata) image = image.withExif({ IFD0: { Copyright: "secret-owner", Artist: "Jane Doe" } })
    return image.toFormat(format, { quality: 40 }).toBuffer()
  })

const upload = (token: string, bytes: Uint8Array, name = "avatar.png", type = "image/png", field = "file") => {
  const form = new FormData()
  form.append(field, new Blob([bytes], { type }), name)
  return client("/v1/users/profile/image", { method: "POST", body: form, headers: bearer(token) })
}

/** The raw bytes of a served file. */
const fetchBytes = (path: string) =>
  Effect.flatMap(baseUrl("client"), (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`)
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
    })
  )

layer(AccountsServer({ IMAGE_MAX_BYTES: String(IMAGE_MAX_BYTES) }), {
  timeout: "90 seconds",
  excludeTestServices: true
})("avatars: upload, re-encode, serve", (it) => {
  it.effect(
    "done-when: with only viem and a key, a new user signs in, edits the profile, uploads an avatar and sees it served",
    () =>
      Effect.gen(function* () {
        const account = newAccount()
        const token = yield* tokenFor(account)
        assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(token) })).status, 200)
        const edited = yield* client("/v1/users/profile", {
          method: "PATCH",
          body: JSON.stringify({ name: "Ada" }),
          headers: { "content-type": "application/json", ...bearer(token) }
        })
        assert.strictEqual(edited.body.name, "Ada")

        const res = yield* upload(token, yield* picture("png"))
        assert.strictEqual(res.status, 200, JSON.stringify(res.body))
        assert.match(res.body.image, /^\/v1\/images\/[0-9a-f]{64}\.webp$/)
        assert.strictEqual(res.body.name, "Ada")
        assert.strictEqual((yield* client("/v1/users/me", { headers: bearer(token) })).body.image, res.body.image)
        assert.strictEqual((yield* client(`/v1/users/profile/address/${account.address}`)).body.image, res.body.image)

        const served = yield* fetchBytes(res.body.image)
        assert.strictEqual(served.status, 200)
        assert.strictEqual(served.headers.get("content-type"), "image/webp")
        assert.strictEqual(served.headers.get("cache-control"), "public, max-age=31536000, immutable")
        const meta = yield* Effect.promise(() => sharp(served.bytes).metadata())
        assert.strictEqual(meta.format, "webp")
        assert.deepStrictEqual([meta.width, meta.height], [512, 341], "fits 512×512, aspect kept")
      })
  )

  it.effect("metadata is stripped: EXIF of a JPEG (copyright, artist) does not reach the stored WebP", () =>
    Effect.gen(function* () {
      const token = yield* tokenFor(newAccount())
      const jpeg = yield* picture("jpeg", 300, 200, true)
      assert.isDefined((yield* Effect.promise(() => sharp(jpeg).metadata())).exif, "the input does carry EXIF")
      const res = yield* upload(token, jpeg, "me.jpg", "image/jpeg")
      assert.strictEqual(res.status, 200)
      const served = yield* fetchBytes(res.body.image)
      const meta = yield* Effect.promise(() => sharp(served.bytes).metadata())
      assert.deepStrictEqual([meta.exif, meta.icc, meta.xmp, meta.iptc], [undefined, undefined, undefined, undefined])
      assert.notInclude(Buffer.from(served.bytes).toString("latin1"), "secret-owner")
      assert.deepStrictEqual([meta.width, meta.height], [300, 200], "small images are not enlarged")
    })
  )

  it.effect("GIF and WebP are accepted; the same picture twice is stored once (content-addressed)", () =>
    Effect.gen(function* () {
      const token = yield* tokenFor(newAccount())
      for (const format of ["gif", "webp"] as const) {
        const res = yield* upload(token, yield* picture(format, 64, 64), `a.${format}`, `image/${format}`)
        assert.strictEqual(res.status, 200, format)
      }
      const png = yield* picture("png", 100, 100)
      const first = yield* upload(token, png)
      const second = yield* upload(yield* tokenFor(newAccount()), png, "other-name.png")
      assert.strictEqual(first.body.image, second.body.image)
      const dir = NodePath.join((yield* AppConfig).dataDir, "images")
      const stored = NodeFs.readdirSync(dir)
      assert.isTrue(
        stored.every((f) => /^[0-9a-f]{64}\.webp$/.test(f)),
        stored.join(",")
      )
      assert.strictEqual(stored.filter((f) => first.body.image.endsWith(f)).length, 1)
    })
  )

  it.effect(
    "a text file renamed .png (and sent as image/png) → 400 NOT_AN_IMAGE; PNG magic with garbage → 400 NOT_AN_IMAGE",
    () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const text = yield* upload(token, new TextEncoder().encode("hello, I am definitely a PNG\n".repeat(20)))
        assert.strictEqual(text.status, 400)
        assert.strictEqual(text.body.code, "NOT_AN_IMAGE")
        const fake = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)])
        const garbage = yield* upload(token, fake)
        assert.strictEqual(garbage.status, 400)
        assert.strictEqual(garbage.body.code, "NOT_AN_IMAGE")
        assert.isNull((yield* client("/v1/users/me", { headers: bearer(token) })).body.image)
      })
  )

  it.effect("oversize → 413 PAYLOAD_TOO_LARGE as JSON: over IMAGE_MAX_BYTES, and over MAX_BODY_BYTES", () =>
    Effect.gen(function* () {
      const token = yield* tokenFor(newAccount())
      const big = new Uint8Array(IMAGE_MAX_BYTES + 1)
      big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      const res = yield* upload(token, big)
      assert.strictEqual(res.status, 413)
      assert.strictEqual(res.headers.get("content-type"), "application/json")
      assert.strictEqual(res.body.code, "PAYLOAD_TOO_LARGE")
      assert.strictEqual(res.body.details.maxBytes, IMAGE_MAX_BYTES)
      const huge = yield* upload(token, new Uint8Array(1_100_000))
      assert.strictEqual(huge.status, 413)
      assert.strictEqual(huge.body.code, "PAYLOAD_TOO_LARGE")
      const exactly = yield* upload(token, yield* picture("png", 10, 10))
      assert.strictEqual(exactly.status, 200)
    })
  )

  it.effect("malformed uploads → 400 INVALID_BODY (no file part, a wrong field); not multipart → 415 JSON", () =>
    Effect.gen(function* () {
      const token = yield* tokenFor(newAccount())
      const png = yield* picture("png", 10, 10)
      const wrongField = yield* upload(token, png, "a.png", "image/png", "avatar")
      assert.strictEqual(wrongField.status, 400)
      assert.strictEqual(wrongField.body.code, "INVALID_BODY")
      const empty = yield* client("/v1/users/profile/image", {
        method: "POST",
        body: new FormData(),
        headers: bearer(token)
      })
      assert.strictEqual(empty.body.code, "INVALID_BODY")
      const json = yield* client("/v1/users/profile/image", {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json", ...bearer(token) }
      })
      assert.strictEqual(json.status, 415)
      assert.strictEqual(json.body.code, "UNSUPPORTED_MEDIA_TYPE")
    })
  )

  it.effect(
    "GET /v1/images/{file}: 400 INVALID_PATH for other names, 404 IMAGE_NOT_FOUND, 304 for a matching ETag",
    () =>
      Effect.gen(function* () {
        for (const name of ["x.webp", "../../etc/passwd", `${"a".repeat(64)}.png`, `${"A".repeat(64)}.webp`]) {
          const res = yield* client(`/v1/images/${encodeURIComponent(name)}`)
          assert.strictEqual(res.status, 400, name)
          assert.strictEqual(res.body.code, "INVALID_PATH")
        }
        const missing = yield* client(`/v1/images/${"0".repeat(64)}.webp`)
        assert.strictEqual(missing.status, 404)
        assert.strictEqual(missing.body.code, "IMAGE_NOT_FOUND")
        const token = yield* tokenFor(newAccount())
        const { image } = (yield* upload(token, yield* picture("png", 20, 20))).body
        const first = yield* fetchBytes(image)
        const etag = first.headers.get("etag")!
        assert.match(etag, /^"[0-9a-f]{64}"$/)
        const again = yield* client(image, { headers: { "if-none-match": etag } })
        assert.strictEqual(again.status, 304)
      })
  )
})
