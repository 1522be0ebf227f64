import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import sharp from "sharp"
import { collectUnreferencedImages } from "../../src/client-api/accounts/images/ImageCollector.ts"
import { ImageReferencesRepo } from "../../src/client-api/accounts/images/ImageReferencesRepo.ts"
import { bearer, client } from "../support/http.ts"
import { AccountsServer, newAccount, tokenFor } from "../sessions/support.ts"

/**
 * Collection of unreferenced images (docs/SECURITY.md threat 23, issue 23 L4): real uploads on the real client
 * service, files under its DATA_DIR, references in its database.
 */
const picture = (color: string) =>
  Effect.promise(() =>
    sharp({ create: { width: 16, height: 16, channels: 3, background: color } })
      .png()
      .toBuffer()
  )

const upload = (path: string, token: string, color: string) =>
  Effect.gen(function* () {
    const form = new FormData()
    form.append("file", new Blob([new Uint8Array(yield* picture(color))], { type: "image/png" }), "a.png")
    const res = yield* client(path, { method: "POST", body: form, headers: bearer(token) })
    assert.include([200, 201], res.status, JSON.stringify(res.body))
    return res.body.image as string
  })

/** An avatar (referenced by the user's profile) and a comment image no comment uses. */
const avatarAndStray = (colors: readonly [string, string]) =>
  Effect.gen(function* () {
    const token = yield* tokenFor(newAccount())
    const avatar = yield* upload("/v1/users/profile/image", token, colors[0])
    const stray = yield* upload("/v1/comments/image", token, colors[1])
    assert.notStrictEqual(avatar, stray)
    return { avatar, stray }
  })

const status = (path: string) => Effect.map(client(path), (res) => res.status)

layer(AccountsServer(), { timeout: "90 seconds", excludeTestServices: true })("one collection pass", (it) => {
  it.effect("keeps what is referenced or younger than the grace, deletes the rest", () =>
    Effect.gen(function* () {
      const { avatar, stray } = yield* avatarAndStray(["#102030", "#a0b0c0"])
      const young = yield* collectUnreferencedImages(3600)
      assert.strictEqual(young.deleted, 0)
      assert.deepStrictEqual([yield* status(avatar), yield* status(stray)], [200, 200])

      const due = yield* collectUnreferencedImages(0)
      assert.strictEqual(due.deleted, 1)
      assert.deepStrictEqual([yield* status(avatar), yield* status(stray)], [200, 404])
    }).pipe(Effect.provide(ImageReferencesRepo.layer))
  )
})

layer(AccountsServer({ IMAGE_GC_GRACE_SECONDS: "2", IMAGE_GC_INTERVAL_SECONDS: "1" }), {
  timeout: "90 seconds",
  excludeTestServices: true
})("the periodic collector", (it) => {
  it.effect("an uploaded image nothing references is deleted after the grace; the avatar stays", () =>
    Effect.gen(function* () {
      const { avatar, stray } = yield* avatarAndStray(["#203040", "#b0c0d0"])
      const gone = yield* status(stray).pipe(
        Effect.repeat({ until: (s) => s !== 200, schedule: Schedule.spaced("200 millis") }),
        Effect.timeout("20 seconds")
      )
      assert.strictEqual(gone, 404)
      assert.strictEqual(yield* status(avatar), 200)
    })
  )
})
