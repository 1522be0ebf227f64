import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress, parseEther } from "viem"
import { ListingsRepo } from "../../src/client-api/listings/ListingsRepo.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { newAccount } from "../sessions/support.ts"
import { authed, buy, client, fund, ignite, indexed, ListingsServer, postJson, sell, tokenFor } from "./support.ts"

const admin = newAccount()
const seeded = (symbol: string) =>
  AnvilChain.use((chain) => Effect.succeed(chain.deployments.launches.find((l) => l.symbol === symbol)!))

layer(ListingsServer(admin.address), { timeout: "180 seconds", excludeTestServices: true })(
  "token routes over indexed data",
  (it) => {
    it.effect(
      "detail of a seeded, graduated token: supply, holders, market, fuel, graduation; unknown → 404, malformed → 400",
      () =>
        Effect.gen(function* () {
          const embr = yield* seeded("EMBR")
          const res = yield* indexed(embr.token)
          const t = res.body
          assert.strictEqual(t.mintAddress, getAddress(embr.token))
          assert.strictEqual(t.symbol, "EMBR")
          assert.strictEqual(t.decimals, 18)
          assert.match(t.totalSupply, /^\d+$/)
          assert.strictEqual(t.creatorAddress, getAddress(embr.creator))
          assert.isFalse(t.claimed)
          assert.isNull(t.creatorId)
          assert.isNull(t.metadata)
          assert.isAbove(t.holders, 2)
          assert.strictEqual(t.graduation.state, "graduated")
          assert.isString(t.graduation.graduatedAt)
          assert.strictEqual(t.fuel.count, 2)
          assert.strictEqual(t.fuel.given, parseEther("0.35").toString())
          assert.isAbove(t.market.priceEth, 0)
          assert.isAbove(t.market.swapCount, 3)
          assert.strictEqual(t.market.pool, getAddress(embr.pool))

          const unknown = yield* client(`/v1/tokens/${newAccount().address}`)
          assert.strictEqual(unknown.status, 404)
          assert.strictEqual(unknown.body.code, "TOKEN_NOT_FOUND")
          const malformed = yield* client("/v1/tokens/0xnothex")
          assert.strictEqual(malformed.status, 400)
          assert.strictEqual(malformed.body.code, "INVALID_PATH")
        })
    )

    it.effect(
      "buyers: leaderboard without the pool, pages by cursor with ranks; chart buckets; fuel history pages",
      () =>
        Effect.gen(function* () {
          const embr = yield* seeded("EMBR")
          yield* indexed(embr.token)
          const all = (yield* client(`/v1/tokens/${embr.token}/buyers?limit=100`)).body.items as Array<any>
          assert.isAbove(all.length, 2)
          assert.notInclude(
            all.map((b) => b.address),
            getAddress(embr.pool)
          )
          const balances = all.map((b) => BigInt(b.balance))
          assert.deepStrictEqual(
            balances,
            [...balances].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
          )
          assert.deepStrictEqual(
            all.map((b) => b.rank),
            all.map((_, i) => i + 1)
          )

          const walked: Array<any> = []
          let cursor: string | null = null
          do {
            const page: any = (yield* client(
              `/v1/tokens/${embr.token}/buyers?limit=1${cursor ? `&cursor=${cursor}` : ""}`
            )).body
            walked.push(...page.items)
            cursor = page.nextCursor
          } while (cursor !== null && walked.length < 50)
          assert.deepStrictEqual(walked, all)
          assert.strictEqual(
            (yield* client(`/v1/tokens/${embr.token}/buyers?cursor=bogus`)).body.code,
            "INVALID_CURSOR"
          )
          assert.strictEqual((yield* client(`/v1/tokens/${embr.token}/buyers?limit=0`)).body.code, "INVALID_QUERY")

          const chart = (yield* client(`/v1/tokens/${embr.token}/buyers/chart?bucket=1d`)).body
          assert.strictEqual(chart.bucket, "1d")
          assert.isAbove(chart.items.length, 0)
          const last = chart.items.at(-1)
          assert.strictEqual(
            last.cumulativeBuyers,
            chart.items.reduce((n: number, b: any) => n + b.newBuyers, 0)
          )
          assert.isAtLeast(
            chart.items.reduce((n: number, b: any) => n + b.buys, 0),
            last.cumulativeBuyers
          )
          assert.strictEqual((yield* client(`/v1/tokens/${embr.token}/buyers/chart?bucket=5m`)).status, 400)

          const fuels = (yield* client(`/v1/tokens/${embr.token}/fuels?limit=1`)).body
          assert.strictEqual(fuels.items.length, 1)
          assert.strictEqual(fuels.items[0].kind, "given")
          const rest = (yield* client(`/v1/tokens/${embr.token}/fuels?cursor=${fuels.nextCursor}`)).body
          assert.strictEqual(rest.items.length, 1)
          assert.isNull(rest.nextCursor)
          assert.deepStrictEqual(
            [fuels.items[0].amount, rest.items[0].amount].sort(),
            [parseEther("0.25").toString(), parseEther("0.10").toString()].sort()
          )
        })
    )

    it.effect("position: balance, cost basis and PnL from the caller's own buys and sells", () =>
      Effect.gen(function* () {
        const creator = newAccount()
        const trader = newAccount()
        yield* fund(creator.address)
        yield* fund(trader.address)
        const launched = yield* ignite(creator, "Position", "POSN")
        yield* buy(trader, launched.token, launched.fee, "0.2")
        yield* buy(trader, launched.token, launched.fee, "0.3")
        const held = yield* AnvilChain.use((chain) =>
          Effect.promise(() =>
            chain.publicClient.readContract({
              address: launched.token,
              abi: [
                {
                  type: "function",
                  name: "balanceOf",
                  stateMutability: "view",
                  inputs: [{ type: "address" }],
                  outputs: [{ type: "uint256" }]
                }
              ],
              functionName: "balanceOf",
              args: [trader.address]
            })
          )
        )
        yield* sell(trader, launched.token, launched.fee, held / 2n)
        // The sale paid WETH to the trader (who had none): that is the sale's proceeds.
        const proceeds = yield* AnvilChain.use((chain) =>
          Effect.promise(() =>
            chain.publicClient.readContract({
              address: chain.deployments.contracts.weth9,
              abi: [
                {
                  type: "function",
                  name: "balanceOf",
                  stateMutability: "view",
                  inputs: [{ type: "address" }],
                  outputs: [{ type: "uint256" }]
                }
              ],
              functionName: "balanceOf",
              args: [trader.address]
            })
          )
        )
        const jwt = yield* tokenFor(trader)
        yield* indexed(launched.token, (b) => b.market.swapCount === 3)
        const res = yield* authed(jwt, "GET", `/v1/tokens/${launched.token}/position`)
        assert.strictEqual(res.status, 200, JSON.stringify(res.body))
        const p = res.body
        assert.strictEqual(p.wallet, trader.address)
        assert.strictEqual(p.buys, 2)
        assert.strictEqual(p.sells, 1)
        assert.strictEqual(BigInt(p.bought), held)
        assert.strictEqual(BigInt(p.sold), held / 2n)
        assert.strictEqual(BigInt(p.balance), held - held / 2n)
        // Average cost: half the tokens sold carry half of the 0.5 WETH spent; realized = proceeds − that cost.
        const soldCost = (parseEther("0.5") * (held / 2n)) / held
        const basis = BigInt(p.costBasisWei)
        assert.strictEqual(basis, parseEther("0.5") - soldCost)
        assert.strictEqual(BigInt(p.realizedPnlWei), proceeds - soldCost)
        assert.isTrue(BigInt(p.currentValueWei) > 0n)
        assert.strictEqual(BigInt(p.unrealizedPnlWei), BigInt(p.currentValueWei) - basis)
        assert.strictEqual((yield* client(`/v1/tokens/${launched.token}/position`)).status, 401)

        // The trader signed in: the holder leaderboard links the wallet to its user.
        const traderId = (yield* authed(jwt, "GET", "/v1/users/me")).body.id
        const holders = (yield* client(`/v1/tokens/${launched.token}/buyers`)).body.items
        assert.deepStrictEqual(
          holders.map((b: any) => [b.address, b.balance, b.user?.id ?? null]),
          [[trader.address, p.balance, traderId]]
        )
      })
    )

    it.effect("batch images: every address answered; limit of 100 documented and enforced", () =>
      Effect.gen(function* () {
        const embr = yield* seeded("EMBR")
        const res = yield* postJson("/v1/tokens/batch/images", { addresses: [embr.token] })
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual(res.body.images, { [getAddress(embr.token)]: null })
        const tooMany = yield* postJson("/v1/tokens/batch/images", {
          addresses: Array.from({ length: 101 }, () => newAccount().address)
        })
        assert.strictEqual(tooMany.status, 400)
        assert.strictEqual(tooMany.body.code, "INVALID_BODY")
        assert.strictEqual((yield* postJson("/v1/tokens/batch/images", { addresses: [] })).status, 400)
      })
    )

    it.effect("reports: one open report per user per token (also concurrently); admins list, resolve and hide", () =>
      Effect.gen(function* () {
        const blze = yield* seeded("BLZE")
        yield* indexed(blze.token)
        const reporter = yield* tokenFor(newAccount())
        const path = `/v1/tokens/${blze.token}/report`
        const results = yield* Effect.forEach(
          Array.from({ length: 10 }),
          () => authed(reporter, "POST", path, { reason: "scam", details: "rug" }),
          {
            concurrency: "unbounded"
          }
        )
        const created = results.filter((r) => r.status === 201)
        assert.strictEqual(created.length, 1, JSON.stringify(results.map((r) => r.status)))
        const dupes = results.filter((r) => r.status === 409)
        assert.strictEqual(dupes.length, 9)
        assert.strictEqual(dupes[0]!.body.code, "REPORT_ALREADY_OPEN")
        assert.strictEqual(dupes[0]!.body.details.reportId, created[0]!.body.id)
        assert.strictEqual((yield* authed(reporter, "POST", path, { reason: "nonsense" })).body.code, "INVALID_BODY")
        const second = yield* authed(yield* tokenFor(newAccount()), "POST", path, { reason: "spam" })
        assert.strictEqual(second.status, 201)

        // Non-admins are refused; the admin sees the queue oldest first.
        assert.strictEqual((yield* authed(reporter, "GET", "/v1/tokens/admin/reports")).status, 403)
        const adminJwt = yield* tokenFor(admin)
        const queue = (yield* authed(adminJwt, "GET", "/v1/tokens/admin/reports?limit=1")).body
        assert.strictEqual(queue.items[0].id, created[0]!.body.id)
        const next = (yield* authed(adminJwt, "GET", `/v1/tokens/admin/reports?cursor=${queue.nextCursor}`)).body
        assert.strictEqual(next.items[0].id, second.body.id)

        // Dismissed: the reporter may report again.
        const dismissed = yield* authed(adminJwt, "POST", `/v1/tokens/admin/reports/${created[0]!.body.id}/resolve`, {
          resolution: "dismissed"
        })
        assert.strictEqual(dismissed.status, 200, JSON.stringify(dismissed.body))
        assert.strictEqual(dismissed.body.status, "resolved")
        assert.strictEqual(
          (yield* authed(adminJwt, "POST", `/v1/tokens/admin/reports/${created[0]!.body.id}/resolve`, {
            resolution: "dismissed"
          })).body.code,
          "REPORT_ALREADY_RESOLVED"
        )
        const again = yield* authed(reporter, "POST", path, { reason: "offensive" })
        assert.strictEqual(again.status, 201)

        // Resolved as hidden: the token is hidden and every open report of it is closed.
        const hid = yield* authed(adminJwt, "POST", `/v1/tokens/admin/reports/${second.body.id}/resolve`, {
          resolution: "hidden",
          note: "confirmed"
        })
        assert.strictEqual(hid.body.resolution, "hidden")
        const open = (yield* authed(adminJwt, "GET", "/v1/tokens/admin/reports?status=open")).body.items
        assert.deepStrictEqual(
          open.filter((r: any) => r.mintAddress === getAddress(blze.token)),
          []
        )
        const gone = yield* client(`/v1/tokens/${blze.token}`)
        assert.strictEqual(gone.status, 410)
        assert.strictEqual(gone.body.code, "TOKEN_DELETED")
        assert.strictEqual((yield* client(`/v1/tokens/${blze.token}/buyers`)).body.code, "TOKEN_DELETED")
        assert.strictEqual((yield* authed(reporter, "POST", path, { reason: "scam" })).status, 410)
      })
    )

    it.effect("admin hide and unhide: listings view, detail, icons; audited; idempotent; admins only", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const cndr = yield* seeded("CNDR")
        yield* indexed(cndr.token)
        const adminJwt = yield* tokenFor(admin)
        const userJwt = yield* tokenFor(newAccount())
        const hide = (jwt: string) => authed(jwt, "POST", `/v1/tokens/admin/${cndr.token}/hide`, { reason: "spam" })
        assert.strictEqual((yield* hide(userJwt)).status, 403)
        const listed = () =>
          sql`SELECT 1 FROM token_listings WHERE token_address = ${cndr.token.toLowerCase()}`.pipe(
            Effect.map((r) => r.length)
          )
        assert.strictEqual(yield* listed(), 1)
        assert.isTrue((yield* hide(adminJwt)).body.changed)
        assert.isFalse((yield* hide(adminJwt)).body.changed)
        assert.strictEqual(yield* listed(), 0)
        assert.strictEqual((yield* client(`/v1/tokens/${cndr.token}`)).status, 410)
        const unhide = yield* authed(adminJwt, "POST", `/v1/tokens/admin/${cndr.token}/unhide`, {})
        assert.deepStrictEqual(
          { hidden: unhide.body.hidden, changed: unhide.body.changed },
          { hidden: false, changed: true }
        )
        assert.strictEqual((yield* client(`/v1/tokens/${cndr.token}`)).status, 200)
        const actions =
          yield* sql`SELECT action FROM token_admin_actions WHERE token_address = ${cndr.token.toLowerCase()} ORDER BY id`
        assert.deepStrictEqual(
          actions.map((a: any) => a.action),
          ["hide", "unhide"]
        )
        assert.strictEqual(
          (yield* authed(adminJwt, "POST", `/v1/tokens/admin/${newAccount().address}/hide`, {})).body.code,
          "TOKEN_NOT_FOUND"
        )
      })
    )

    it.effect("the database decides a claim race: 50 concurrent metadata inserts for one token, exactly one row", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const repo = yield* ListingsRepo
        const users = yield* Effect.forEach(Array.from({ length: 50 }), () =>
          Effect.map(
            sql<{ id: string }>`INSERT INTO users (idp_did) VALUES (${`test:${Math.random()}`}) RETURNING id`,
            (r) => r[0]!.id
          )
        )
        const token = newAccount().address.toLowerCase()
        const results = yield* Effect.forEach(
          users,
          (creatorId) =>
            sql.withTransaction(
              repo.insertMetadata({
                chainId: 31337,
                tokenAddress: token,
                creatorId,
                creatorWallet: newAccount().address,
                name: "n",
                symbol: "s",
                description: null,
                category: null,
                image: null,
                source: "claim",
                launchId: null
              })
            ),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r._tag === "Inserted").length, 1)
        assert.strictEqual(results.filter((r) => r._tag === "Taken").length, 49)
        assert.strictEqual((yield* sql`SELECT 1 FROM token_metadata WHERE token_address = ${token}`).length, 1)
      }).pipe(Effect.provide(ListingsRepo.layer))
    )
  }
)
