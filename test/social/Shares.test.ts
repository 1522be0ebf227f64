import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AnvilChain } from "../support/AnvilChain.ts"
import { bearer, client, postJson } from "../support/http.ts"
import { newAccount, tokenFor } from "../sessions/support.ts"
import { indexerAtHead, SocialServer } from "./support.ts"

layer(SocialServer({ SHARE_REDIRECT_TEMPLATE: "https://fire.example/t/{mintAddress}" }), {
  timeout: "120 seconds",
  excludeTestServices: true
})("share links", (it) => {
  it.effect("POST /v1/shares: one link per user and token; the redirect answers 302 and counts every visit", () =>
    Effect.gen(function* () {
      yield* indexerAtHead
      const anvil = yield* AnvilChain
      const mint = anvil.deployments.launches.find((l) => l.canonical)!.token
      const [a, b] = [yield* tokenFor(newAccount()), yield* tokenFor(newAccount())]
      const created = yield* postJson("/v1/shares", { mintAddress: mint.toLowerCase() }, bearer(a))
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      assert.match(created.body.code, /^[0-9A-Za-z]{8}$/)
      assert.deepStrictEqual(
        [created.body.path, created.body.mintAddress, created.body.target, created.body.visits],
        [`/v1/shares/${created.body.code}`, mint, `https://fire.example/t/${mint}`, 0]
      )
      const again = yield* postJson("/v1/shares", { mintAddress: mint }, bearer(a))
      assert.strictEqual(again.body.code, created.body.code, "same user and token: same link")
      const other = yield* postJson("/v1/shares", { mintAddress: mint }, bearer(b))
      assert.notStrictEqual(other.body.code, created.body.code)

      const visits = yield* Effect.all(
        Array.from({ length: 10 }, () => client(created.body.path, { redirect: "manual" })),
        { concurrency: "unbounded" }
      )
      for (const v of visits) {
        assert.strictEqual(v.status, 302)
        assert.strictEqual(v.headers.get("location"), `https://fire.example/t/${mint}`)
      }
      assert.strictEqual((yield* postJson("/v1/shares", { mintAddress: mint }, bearer(a))).body.visits, 10)
      assert.strictEqual((yield* postJson("/v1/shares", { mintAddress: mint }, bearer(b))).body.visits, 0)
    })
  )

  it.effect(
    "errors: 401 without a session, 404 TOKEN_NOT_FOUND, 400 INVALID_BODY, 404 SHARE_NOT_FOUND, 400 INVALID_PATH",
    () =>
      Effect.gen(function* () {
        assert.strictEqual((yield* postJson("/v1/shares", { mintAddress: newAccount().address })).status, 401)
        const token = yield* tokenFor(newAccount())
        const unknown = yield* postJson("/v1/shares", { mintAddress: newAccount().address }, bearer(token))
        assert.deepStrictEqual([unknown.status, unknown.body.code], [404, "TOKEN_NOT_FOUND"])
        const bad = yield* postJson("/v1/shares", { mintAddress: "0x12" }, bearer(token))
        assert.deepStrictEqual([bad.status, bad.body.code], [400, "INVALID_BODY"])
        const none = yield* client("/v1/shares/ZZZZZZZZ", { redirect: "manual" })
        assert.deepStrictEqual([none.status, none.body.code], [404, "SHARE_NOT_FOUND"])
        assert.strictEqual((yield* client("/v1/shares/short", { redirect: "manual" })).status, 400)
      })
  )
})
