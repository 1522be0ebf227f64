import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { getAddress } from "viem"
import { newAccount } from "../sessions/support.ts"
import { authed, fund, ignite, indexed, ListingsServer, picture, tokenFor, uploadTo } from "./support.ts"

const admin = newAccount()
const draft = (symbol: string, extra: Record<string, unknown> = {}) => ({
  name: `Token ${symbol}`,
  symbol,
  description: "A test launch",
  category: "meme",
  chainId: 31337,
  ...extra
})

layer(ListingsServer(admin.address), { timeout: "180 seconds", excludeTestServices: true })("launch flow", (it) => {
  it.effect(
    "done-when: draft → image → ignite on-chain with viem → submit; the listing is linked to the creator's profile",
    () =>
      Effect.gen(function* () {
        const creator = newAccount()
        yield* fund(creator.address)
        const jwt = yield* tokenFor(creator)

        const created = yield* authed(jwt, "POST", "/v1/launch", draft("FLOW"))
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        assert.strictEqual(created.body.status, "DRAFT")
        const id = created.body.id as string
        assert.deepStrictEqual(
          (yield* authed(jwt, "GET", "/v1/launch/pending")).body.items.map((l: any) => l.id),
          [id]
        )

        const imaged = yield* uploadTo(jwt, `/v1/launch/${id}/image`, yield* picture)
        assert.strictEqual(imaged.status, 200, JSON.stringify(imaged.body))
        assert.strictEqual(imaged.body.status, "IMAGE_UPLOADED")
        assert.match(imaged.body.image, /^\/v1\/images\/[0-9a-f]{64}\.webp$/)

        const { token } = yield* ignite(creator, "Flow Token", "FLOW")
        const submitted = yield* authed(jwt, "POST", `/v1/launch/${id}/submit`, { tokenAddress: token.toLowerCase() })
        assert.strictEqual(submitted.status, 200, JSON.stringify(submitted.body))
        assert.strictEqual(submitted.body.status, "COMPLETED")
        assert.strictEqual(submitted.body.tokenAddress, getAddress(token))
        assert.isString(submitted.body.completedAt)
        assert.deepStrictEqual((yield* authed(jwt, "GET", "/v1/launch/pending")).body.items, [])

        // "Your launch completed", written in the submit's transaction.
        const notes = (yield* authed(jwt, "GET", "/v1/notifications")).body.items
        assert.deepStrictEqual(
          notes.map((n: any) => [n.kind, n.payload.launchId, n.payload.token, n.payload.symbol]),
          [["LAUNCH_COMPLETED", id, token.toLowerCase(), "FLOW"]]
        )

        // Idempotent for the same token (and notified once).
        const again = yield* authed(jwt, "POST", `/v1/launch/${id}/submit`, { tokenAddress: token })
        assert.strictEqual(again.status, 200)
        assert.strictEqual(again.body.completedAt, submitted.body.completedAt)
        assert.strictEqual((yield* authed(jwt, "GET", "/v1/notifications")).body.items.length, 1)

        // The indexed token page shows the listing: claimed, linked to the creator's profile, metadata from the draft.
        const me = (yield* authed(jwt, "GET", "/v1/users/me")).body
        const page = (yield* indexed(token, (b) => b.claimed === true)).body
        assert.strictEqual(page.creatorId, me.id)
        assert.strictEqual(page.creator.id, me.id)
        assert.strictEqual(page.creator.walletAddress, creator.address)
        assert.strictEqual(page.creatorAddress, creator.address)
        assert.strictEqual(page.name, "Flow Token")
        assert.strictEqual(page.symbol, "FLOW")
        assert.deepStrictEqual(
          { ...page.metadata, claimedAt: undefined },
          {
            description: "A test launch",
            category: "meme",
            image: imaged.body.image,
            source: "launch",
            claimedAt: undefined
          }
        )
        // The token now has a metadata record: a claim is refused.
        const claim = yield* authed(jwt, "POST", `/v1/tokens/${token}/claim`, {
          wallet: creator.address,
          signedAt: 1,
          signature: "0x00"
        })
        assert.strictEqual(claim.status, 409)
        assert.strictEqual(claim.body.code, "ALREADY_CLAIMED")
      })
  )

  it.effect(
    "submit: non-creator → 403 NOT_CREATOR; already-claimed token → 409 ALREADY_CLAIMED; unknown token → 404",
    () =>
      Effect.gen(function* () {
        const creator = newAccount()
        const other = newAccount()
        yield* fund(creator.address)
        const creatorJwt = yield* tokenFor(creator)
        const otherJwt = yield* tokenFor(other)
        const { token } = yield* ignite(creator, "Owned", "OWND")

        const ready = (jwt: string, symbol: string) =>
          Effect.gen(function* () {
            const id = (yield* authed(jwt, "POST", "/v1/launch", draft(symbol))).body.id as string
            assert.strictEqual((yield* uploadTo(jwt, `/v1/launch/${id}/image`, yield* picture)).status, 200)
            return id
          })

        const stolen = yield* ready(otherJwt, "OWND")
        const notCreator = yield* authed(otherJwt, "POST", `/v1/launch/${stolen}/submit`, { tokenAddress: token })
        assert.strictEqual(notCreator.status, 403, JSON.stringify(notCreator.body))
        assert.strictEqual(notCreator.body.code, "NOT_CREATOR")
        assert.strictEqual((yield* authed(otherJwt, "GET", `/v1/launch/${stolen}`)).body.status, "IMAGE_UPLOADED")

        const unknown = yield* authed(otherJwt, "POST", `/v1/launch/${stolen}/submit`, {
          tokenAddress: newAccount().address
        })
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.body.code, "TOKEN_NOT_FOUND")

        // The creator submits it through one launch; a second launch of the creator cannot take the same token.
        const first = yield* ready(creatorJwt, "OWND")
        assert.strictEqual(
          (yield* authed(creatorJwt, "POST", `/v1/launch/${first}/submit`, { tokenAddress: token })).status,
          200
        )
        const second = yield* ready(creatorJwt, "OWND")
        const taken = yield* authed(creatorJwt, "POST", `/v1/launch/${second}/submit`, { tokenAddress: token })
        assert.strictEqual(taken.status, 409, JSON.stringify(taken.body))
        assert.strictEqual(taken.body.code, "ALREADY_CLAIMED")
        assert.strictEqual((yield* authed(creatorJwt, "GET", `/v1/launch/${second}`)).body.status, "IMAGE_UPLOADED")
      })
  )

  it.effect("every illegal transition is a 409 naming the state; COMPLETED cannot fail; only drafts are deleted", () =>
    Effect.gen(function* () {
      const creator = newAccount()
      yield* fund(creator.address)
      const jwt = yield* tokenFor(creator)
      const create = (symbol: string) =>
        Effect.map(authed(jwt, "POST", "/v1/launch", draft(symbol)), (r) => r.body.id as string)
      const expect409 = (res: { status: number; body: any }, code: string) => {
        assert.strictEqual(res.status, 409, JSON.stringify(res.body))
        assert.strictEqual(res.body.code, code)
      }

      // DRAFT: submit is illegal; fail and delete are legal.
      const a = yield* create("TRNA")
      expect409(
        yield* authed(jwt, "POST", `/v1/launch/${a}/submit`, { tokenAddress: newAccount().address }),
        "LAUNCH_DRAFT"
      )
      const deleted = yield* authed(jwt, "DELETE", `/v1/launch/${a}`)
      assert.strictEqual(deleted.status, 204)
      assert.strictEqual((yield* authed(jwt, "GET", `/v1/launch/${a}`)).status, 404)

      // IMAGE_UPLOADED: a second image and delete are illegal; fail is legal; then FAILED is final.
      const b = yield* create("TRNB")
      assert.strictEqual((yield* uploadTo(jwt, `/v1/launch/${b}/image`, yield* picture)).status, 200)
      expect409(yield* uploadTo(jwt, `/v1/launch/${b}/image`, yield* picture), "LAUNCH_IMAGE_UPLOADED")
      expect409(yield* authed(jwt, "DELETE", `/v1/launch/${b}`), "LAUNCH_IMAGE_UPLOADED")
      const failed = yield* authed(jwt, "POST", `/v1/launch/${b}/fail`)
      assert.strictEqual(failed.status, 200)
      assert.strictEqual(failed.body.status, "FAILED")
      // Failing again is idempotent (a retried request): the same FAILED launch, unchanged.
      const again = yield* authed(jwt, "POST", `/v1/launch/${b}/fail`)
      assert.strictEqual(again.status, 200)
      assert.deepStrictEqual(again.body, failed.body)
      expect409(yield* uploadTo(jwt, `/v1/launch/${b}/image`, yield* picture), "LAUNCH_FAILED")
      expect409(
        yield* authed(jwt, "POST", `/v1/launch/${b}/submit`, { tokenAddress: newAccount().address }),
        "LAUNCH_FAILED"
      )
      expect409(yield* authed(jwt, "DELETE", `/v1/launch/${b}`), "LAUNCH_FAILED")

      // DRAFT → FAILED directly.
      const c = yield* create("TRNC")
      assert.strictEqual((yield* authed(jwt, "POST", `/v1/launch/${c}/fail`)).body.status, "FAILED")

      // COMPLETED: fail, image, delete and another token are illegal.
      const d = yield* create("TRND")
      assert.strictEqual((yield* uploadTo(jwt, `/v1/launch/${d}/image`, yield* picture)).status, 200)
      const { token } = yield* ignite(creator, "Transitions", "TRND")
      assert.strictEqual((yield* authed(jwt, "POST", `/v1/launch/${d}/submit`, { tokenAddress: token })).status, 200)
      expect409(yield* authed(jwt, "POST", `/v1/launch/${d}/fail`), "LAUNCH_COMPLETED")
      expect409(yield* uploadTo(jwt, `/v1/launch/${d}/image`, yield* picture), "LAUNCH_COMPLETED")
      expect409(yield* authed(jwt, "DELETE", `/v1/launch/${d}`), "LAUNCH_COMPLETED")
      const otherToken = (yield* ignite(creator, "Other", "OTHR")).token
      const res = yield* authed(jwt, "POST", `/v1/launch/${d}/submit`, { tokenAddress: otherToken })
      expect409(res, "LAUNCH_COMPLETED")
      assert.deepStrictEqual(res.body.details.allowedFrom, ["IMAGE_UPLOADED"])
    })
  )

  it.effect("launches are private; ids and bodies are validated", () =>
    Effect.gen(function* () {
      const owner = yield* tokenFor(newAccount())
      const stranger = yield* tokenFor(newAccount())
      const id = (yield* authed(owner, "POST", "/v1/launch", draft("PRIV"))).body.id as string
      for (const [method, path] of [
        ["GET", `/v1/launch/${id}`],
        ["POST", `/v1/launch/${id}/fail`],
        ["DELETE", `/v1/launch/${id}`]
      ] as const) {
        const res = yield* authed(stranger, method, path)
        assert.strictEqual(res.status, 404, `${method} ${path}`)
        assert.strictEqual(res.body.code, "LAUNCH_NOT_FOUND")
      }
      assert.strictEqual((yield* authed(owner, "GET", `/v1/launch/${id}`)).body.status, "DRAFT")
      assert.strictEqual((yield* authed(owner, "GET", "/v1/launch/not-a-uuid")).body.code, "INVALID_PATH")
      assert.strictEqual(
        (yield* authed(owner, "POST", "/v1/launch", draft("X", { chainId: 1 }))).body.code,
        "CHAIN_NOT_SUPPORTED"
      )
      for (const bad of [
        { category: "stocks" },
        { symbol: "TOO-LONG-SYMBOL" },
        { name: "" },
        { description: "x".repeat(501) }
      ]) {
        const res = yield* authed(owner, "POST", "/v1/launch", draft("BAD", bad))
        assert.strictEqual(res.status, 400, JSON.stringify(bad))
        assert.strictEqual(res.body.code, "INVALID_BODY")
      }
      const anonymous = yield* authed("", "POST", "/v1/launch", draft("ANON"))
      assert.strictEqual(anonymous.status, 401)
    })
  )

  it.effect("DUPLICATE_LAUNCH: one in-flight launch per (chainId, symbol), also under 20 concurrent creates", () =>
    Effect.gen(function* () {
      const jwt = yield* tokenFor(newAccount())
      const results = yield* Effect.forEach(
        Array.from({ length: 20 }, (_, i) => draft(i % 2 === 0 ? "RACE" : "race")),
        (body) => authed(jwt, "POST", "/v1/launch", body),
        { concurrency: "unbounded" }
      )
      const created = results.filter((r) => r.status === 201)
      const duplicates = results.filter((r) => r.status === 400 && r.body.code === "DUPLICATE_LAUNCH")
      assert.strictEqual(created.length, 1, JSON.stringify(results.map((r) => r.status)))
      assert.strictEqual(duplicates.length, 19)
      assert.strictEqual(duplicates[0]!.body.details.launchId, created[0]!.body.id)

      // Another symbol, or another user, is not a duplicate; a FAILED launch frees the slot.
      assert.strictEqual((yield* authed(jwt, "POST", "/v1/launch", draft("RACE2"))).status, 201)
      assert.strictEqual(
        (yield* authed(yield* tokenFor(newAccount()), "POST", "/v1/launch", draft("RACE"))).status,
        201
      )
      assert.strictEqual((yield* authed(jwt, "POST", `/v1/launch/${created[0]!.body.id}/fail`)).status, 200)
      assert.strictEqual((yield* authed(jwt, "POST", "/v1/launch", draft("RACE"))).status, 201)
    })
  )
})
