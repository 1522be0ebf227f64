import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import sharp from "sharp"
import { baseUrl } from "../support/TestServer.ts"
import { bearer, client } from "../support/http.ts"
import { AccountsServer, newAccount, signIn, tokenFor } from "../sessions/support.ts"

/**
 * State-changing requests on the client API (docs/SECURITY.md, "Cross-site requests"): bodies must be JSON (multipart
 * on the upload routes), and a request authenticated by the session cookie is refused when another site sent it.
 * Requests go to the real client service; `Origin`, `Sec-Fetch-Site` and the cookie are set as a browser would.
 */
const APP = "https://app.example.com"
const EVIL = "https://evil.example"
const SIBLING = "https://blog.app.example.com"

const cookie = (token: string) => ({ cookie: `__Host-fire_session=${token}` })
const json = { "content-type": "application/json" }

/** PATCH /v1/users/profile with a body given as bytes, so fetch adds no Content-Type of its own. */
const patchProfile = (headers: Record<string, string>, name = "Ada") =>
  client("/v1/users/profile", {
    method: "PATCH",
    body: new TextEncoder().encode(JSON.stringify({ name })),
    headers
  })

const png = Effect.promise(() =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: "#f40" } })
    .png()
    .toBuffer()
)

const uploadAvatar = (headers: Record<string, string>) =>
  Effect.flatMap(png, (bytes) => {
    const form = new FormData()
    form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "a.png")
    return client("/v1/users/profile/image", { method: "POST", body: form, headers })
  })

layer(AccountsServer({ CORS_ORIGINS: APP }), { timeout: "90 seconds", excludeTestServices: true })(
  "unsafe requests on the client API",
  (it) => {
    it.effect("a body without Content-Type, or as text/plain or a form, is refused 415 UNSUPPORTED_MEDIA_TYPE", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        for (const headers of [cookie(token), bearer(token)]) {
          const untyped = yield* patchProfile(headers)
          assert.deepStrictEqual([untyped.status, untyped.body.code], [415, "UNSUPPORTED_MEDIA_TYPE"])
          assert.deepStrictEqual(untyped.body.details, { accepted: ["application/json"] })
          for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
            const typed = yield* patchProfile({ ...headers, "content-type": type })
            assert.deepStrictEqual([typed.status, typed.body.code], [415, "UNSUPPORTED_MEDIA_TYPE"], type)
          }
        }
        const ok = yield* patchProfile({ ...cookie(token), ...json, "content-type": "application/json; charset=utf-8" })
        assert.deepStrictEqual([ok.status, ok.body.name], [200, "Ada"])
      })
    )

    it.effect(
      "a cookie-authenticated request from another site is refused 403 CROSS_SITE_REQUEST; the app's origins pass",
      () =>
        Effect.gen(function* () {
          const token = yield* tokenFor(newAccount())
          const host = new URL(yield* baseUrl("client")).origin
          const refused: Array<Record<string, string>> = [
            { "sec-fetch-site": "cross-site" },
            { origin: EVIL },
            { origin: SIBLING, "sec-fetch-site": "same-site" },
            { origin: "null" }
          ]
          for (const extra of refused) {
            const res = yield* patchProfile({ ...cookie(token), ...json, ...extra })
            assert.deepStrictEqual([res.status, res.body.code], [403, "CROSS_SITE_REQUEST"], JSON.stringify(extra))
          }
          const allowed: Array<Record<string, string>> = [
            {},
            { origin: APP, "sec-fetch-site": "same-site" },
            { origin: host, "sec-fetch-site": "same-origin" }
          ]
          for (const extra of allowed) {
            const res = yield* patchProfile({ ...cookie(token), ...json, ...extra }, "Grace")
            assert.strictEqual(res.status, 200, `${JSON.stringify(extra)}: ${JSON.stringify(res.body)}`)
          }
          // Reads are not state-changing: a page elsewhere still cannot read them (CORS), but they are answered.
          const read = yield* client("/v1/users/me", { headers: { ...cookie(token), origin: EVIL } })
          assert.strictEqual(read.status, 200)
        })
    )

    it.effect("Bearer-authenticated requests are not checked for their origin", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const res = yield* patchProfile({ ...bearer(token), ...json, origin: EVIL, "sec-fetch-site": "cross-site" })
        assert.strictEqual(res.status, 200, JSON.stringify(res.body))
      })
    )

    it.effect("multipart uploads and bodiless POSTs: same origin passes, another site is refused", () =>
      Effect.gen(function* () {
        const token = yield* tokenFor(newAccount())
        const crossUpload = yield* uploadAvatar({ ...cookie(token), origin: EVIL })
        assert.deepStrictEqual([crossUpload.status, crossUpload.body.code], [403, "CROSS_SITE_REQUEST"])
        const upload = yield* uploadAvatar(cookie(token))
        assert.strictEqual(upload.status, 200, JSON.stringify(upload.body))

        const crossLogout = yield* client("/v1/session/logout", {
          method: "POST",
          headers: { ...cookie(token), "sec-fetch-site": "cross-site" }
        })
        assert.deepStrictEqual([crossLogout.status, crossLogout.body.code], [403, "CROSS_SITE_REQUEST"])
        assert.strictEqual((yield* client("/v1/users/me", { headers: cookie(token) })).status, 200)
        const logout = yield* client("/v1/session/logout", { method: "POST", headers: cookie(token) })
        assert.strictEqual(logout.status, 204, JSON.stringify(logout.body))
        assert.strictEqual((yield* client("/v1/users/me", { headers: cookie(token) })).status, 401)
      })
    )

    it.effect("the session cookie is __Host-fire_session: Secure, Path=/, no Domain; the bare name is not read", () =>
      Effect.gen(function* () {
        const res = yield* signIn(newAccount())
        const setCookie = res.headers.get("set-cookie") ?? ""
        assert.match(setCookie, /^__Host-fire_session=[^;]+;/)
        assert.match(setCookie, /; Path=\//)
        assert.match(setCookie, /; Secure/)
        assert.notMatch(setCookie, /Domain=/i)
        const bare = yield* client("/v1/users/me", { headers: { cookie: `fire_session=${res.body.token}` } })
        assert.strictEqual(bare.status, 401)
      })
    )
  }
)

layer(AccountsServer({ COOKIE_SECURE: "false" }), { timeout: "90 seconds", excludeTestServices: true })(
  "COOKIE_SECURE=false (plain-http development)",
  (it) => {
    it.effect("the cookie is fire_session without Secure, the only name read, and is checked for its origin", () =>
      Effect.gen(function* () {
        const res = yield* signIn(newAccount())
        const setCookie = res.headers.get("set-cookie") ?? ""
        assert.match(setCookie, /^fire_session=[^;]+;/)
        assert.notMatch(setCookie, /; Secure/)
        const token = res.body.token as string
        const hosted = yield* client("/v1/users/me", { headers: { cookie: `__Host-fire_session=${token}` } })
        assert.strictEqual(hosted.status, 401)
        assert.strictEqual(
          (yield* client("/v1/users/me", { headers: { cookie: `fire_session=${token}` } })).status,
          200
        )
        const cross = yield* patchProfile({ cookie: `fire_session=${token}`, ...json, origin: EVIL })
        assert.deepStrictEqual([cross.status, cross.body.code], [403, "CROSS_SITE_REQUEST"])
      })
    )
  }
)
