import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress, parseEther } from "viem"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { bearer, client, postJson } from "../support/http.ts"
import { newAccount, tokenFor } from "../sessions/support.ts"
import { indexerAtHead, SocialServer } from "./support.ts"

/** Every item of a cursor-paginated route. */
const allPages = (path: string, headers: Record<string, string> = {}, limit = 3) =>
  Effect.gen(function* () {
    const items: Array<any> = []
    let cursor: string | null = null
    const sep = path.includes("?") ? "&" : "?"
    do {
      const res: { status: number; body: any } = yield* client(
        `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
        { headers }
      )
      assert.strictEqual(res.status, 200, JSON.stringify(res.body))
      items.push(...res.body.items)
      cursor = res.body.nextCursor
    } while (cursor !== null)
    return items
  })

const newestFirst = (items: ReadonlyArray<any>) => items.every((x, i) => i === 0 || items[i - 1].at >= x.at)

const tip = (from: number, symbol: string, eth: string) =>
  Effect.gen(function* () {
    const anvil = yield* AnvilChain
    const token = anvil.deployments.launches.find((l) => l.symbol === symbol)!.token
    return yield* Effect.promise(() =>
      anvil.sender.write(
        anvil.accounts[from]!,
        anvil.deployments.launchpad!.fuelVault,
        FuelVaultAbi,
        "give",
        [token],
        parseEther(eth)
      )
    )
  })

const admin = newAccount()

layer(SocialServer({ ADMIN_WALLETS: admin.address }), { timeout: "120 seconds", excludeTestServices: true })(
  "feeds and content",
  (it) => {
    it.effect(
      "personalisation: the viewer's created and held tokens first (newest first), then the rest; anonymous is plain time order",
      () =>
        Effect.gen(function* () {
          yield* indexerAtHead
          const anvil = yield* AnvilChain
          const sql = yield* SqlClient.SqlClient
          const viewer = anvil.accounts[2]! // blaze: created BLZE and SPRK
          const w = viewer.address.toLowerCase()
          const created = (yield* sql<{ token: string }>`SELECT token FROM launches WHERE creator = ${w}`).map((r) =>
            getAddress(r.token)
          )
          const held = (yield* sql<{
            token: string
          }>`SELECT token FROM token_balances WHERE holder = ${w} AND balance > 0`).map((r) => getAddress(r.token))
          assert.isAbove(created.length, 0)
          const mine = new Set([...created, ...held])

          const anonymous = yield* allPages("/v1/feed")
          assert.isTrue(newestFirst(anonymous), "anonymous: newest first")
          assert.isTrue(anonymous.every((x) => x.relevance === null))
          assert.sameMembers([...new Set(anonymous.map((x) => x.type))], ["LAUNCH", "FUEL"])

          const token = yield* tokenFor(viewer)
          const personal = yield* allPages("/v1/feed", bearer(token))
          assert.sameMembers(
            personal.map((x) => x.id),
            anonymous.map((x) => x.id),
            "the same items, reordered"
          )
          const firstOther = personal.findIndex((x) => x.relevance === null)
          const top = personal.slice(0, firstOther)
          const rest = personal.slice(firstOther)
          assert.isAbove(top.length, 0)
          assert.isTrue(
            top.every((x) => mine.has(x.token.address)),
            "first: only the viewer's tokens"
          )
          assert.isTrue(
            rest.every((x) => x.relevance === null && !mine.has(x.token.address)),
            "then: none of them"
          )
          assert.isTrue(newestFirst(top) && newestFirst(rest), "each part newest first")
          for (const x of top)
            assert.strictEqual(x.relevance, created.includes(x.token.address) ? "CREATED" : "HOLDING")

          const launches = yield* allPages("/v1/feed?type=LAUNCHES")
          const canonical = anvil.deployments.launches.filter((l) => l.canonical)
          assert.deepStrictEqual(
            launches.map((x) => x.token.address),
            [...canonical].sort((a, b) => b.blockNumber - a.blockNumber).map((l) => l.token)
          )
          assert.deepStrictEqual(
            launches.map((x) => x.actor.walletAddress),
            [...canonical].sort((a, b) => b.blockNumber - a.blockNumber).map((l) => l.creator)
          )
          assert.deepStrictEqual(yield* allPages("/v1/feed?type=YAPS"), [])
        })
    )

    it.effect(
      "pagination is stable while new items arrive: no repeat, no skip; the new items head a fresh first page",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const token = yield* tokenFor(anvil.accounts[2]!)
          for (const headers of [{}, bearer(token)]) {
            const snapshot = yield* allPages("/v1/feed?type=FUELS", headers)
            const first: { body: any } = yield* client("/v1/feed?type=FUELS&limit=2", { headers })
            // New tips on the viewer's token and on another one, between page 1 and page 2.
            const a = yield* tip(5, "SPRK", "0.01")
            const b = yield* tip(6, "CNDR", "0.01")
            yield* indexerAtHead
            const rest: Array<any> = []
            let cursor: string | null = first.body.nextCursor
            while (cursor !== null) {
              const page: { body: any } = yield* client(`/v1/feed?type=FUELS&limit=2&cursor=${cursor}`, { headers })
              rest.push(...page.body.items)
              cursor = page.body.nextCursor
            }
            assert.deepStrictEqual(
              [...first.body.items, ...rest].map((x: any) => x.id),
              snapshot.map((x) => x.id)
            )
            const fresh = yield* allPages("/v1/feed?type=FUELS", headers)
            assert.sameMembers(
              fresh.map((x) => x.txHash).filter((h) => h === a.transactionHash || h === b.transactionHash),
              [a.transactionHash, b.transactionHash]
            )
            assert.strictEqual(fresh.length, snapshot.length + 2)
          }
          const bad = yield* client("/v1/feed?cursor=xyz")
          assert.deepStrictEqual([bad.status, bad.body.code], [400, "INVALID_CURSOR"])
          assert.strictEqual((yield* client("/v1/feed?type=MEMES")).status, 400)
        })
    )

    it.effect(
      "content streams: tips = the chain's FuelGiven events; shills after POST /v1/shares; ticker mixes them",
      () =>
        Effect.gen(function* () {
          yield* indexerAtHead
          const anvil = yield* AnvilChain
          const logs = yield* Effect.promise(() =>
            anvil.publicClient.getContractEvents({
              address: anvil.deployments.launchpad!.fuelVault,
              abi: FuelVaultAbi,
              eventName: "FuelGiven",
              fromBlock: 0n
            })
          )
          const tips = yield* allPages("/v1/content/tips", {}, 4)
          assert.deepStrictEqual(
            tips.map((x) => x.txHash),
            logs.map((l) => l.transactionHash).reverse()
          )
          assert.deepStrictEqual(
            tips.map((x) => x.amount),
            logs.map((l) => l.args.amount!.toString()).reverse()
          )

          const mint = anvil.deployments.launches.find((l) => l.symbol === "CNDR")!.token
          const sharer = newAccount()
          const share = yield* postJson("/v1/shares", { mintAddress: mint }, bearer(yield* tokenFor(sharer)))
          assert.strictEqual(share.status, 201)
          const shills = yield* allPages("/v1/content/shills")
          assert.deepStrictEqual(
            shills.map((x) => [x.id, x.type, x.token.address, x.actor.walletAddress]),
            [[`shill:${share.body.code}`, "SHILL", mint, sharer.address]]
          )
          assert.deepStrictEqual(
            (yield* allPages("/v1/feed/content")).map((x) => x.id),
            [`shill:${share.body.code}`]
          )
          assert.deepStrictEqual(yield* allPages("/v1/content/yaps"), [])
          const ticker: { body: any } = yield* client("/v1/content/landing-ticker?limit=50")
          assert.sameMembers([...new Set(ticker.body.items.map((x: any) => x.type))], ["LAUNCH", "FUEL", "SHILL"])
          assert.isTrue(newestFirst(ticker.body.items))
        })
    )

    it.effect("dares: non-graduated launches scored over the last 24 h of chain time; sidebar widgets", () =>
      Effect.gen(function* () {
        yield* tip(7, "BLZE", "0.02")
        yield* indexerAtHead
        const anvil = yield* AnvilChain
        const sql = yield* SqlClient.SqlClient
        const res: { status: number; body: any } = yield* client("/v1/feed/dares/viral?limit=50")
        assert.strictEqual(res.status, 200, JSON.stringify(res.body))
        const graduated = anvil.deployments.launches.filter((l) => l.graduated).map((l) => l.token)
        assert.isAbove(graduated.length, 0)
        assert.isTrue(
          res.body.items.every((d: any) => !graduated.includes(d.mintAddress)),
          "graduated tokens are no dares"
        )
        const start = new Date(res.body.windowStart)
        const end = new Date(res.body.windowEnd)
        for (const d of res.body.items) {
          const c = d.components
          assert.strictEqual(d.score, c.swaps + 3 * c.traders + 5 * c.fuelTips + 2 * c.yaps + 2 * c.shares)
          const tipsInWindow = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM fuel_events WHERE kind = 'given'
          AND token = ${d.mintAddress.toLowerCase()} AND block_timestamp > ${start} AND block_timestamp <= ${end}`
          assert.strictEqual(c.fuelTips, tipsInWindow[0]!.n, d.symbol)
        }
        assert.isTrue(res.body.items.every((d: any, i: number) => i === 0 || res.body.items[i - 1].score >= d.score))
        assert.include(
          res.body.items.map((d: any) => d.symbol),
          "BLZE"
        )

        const sidebar: { body: any } = yield* client("/v1/feed/sidebar")
        const canonical = anvil.deployments.launches
          .filter((l) => l.canonical)
          .sort((a, b) => b.blockNumber - a.blockNumber)
        assert.deepStrictEqual(
          sidebar.body.newest.map((t: any) => t.mintAddress),
          canonical.slice(0, 5).map((l) => l.token)
        )
        assert.isTrue(
          sidebar.body.trending.every(
            (t: any, i: number) => t.swaps24h > 0 && (i === 0 || sidebar.body.trending[i - 1].swaps24h >= t.swaps24h)
          )
        )
        assert.isTrue(sidebar.body.topGainers.every((t: any) => typeof t.priceChange24h === "number"))
      })
    )

    it.effect(
      "a token hidden by an admin leaves the feed, the dares and the sidebar; sharing it is 410 TOKEN_DELETED",
      () =>
        Effect.gen(function* () {
          yield* tip(8, "CNDR", "0.01")
          yield* indexerAtHead
          const anvil = yield* AnvilChain
          const cndr = anvil.deployments.launches.find((l) => l.symbol === "CNDR")!.token
          const mentions = Effect.gen(function* () {
            const feed = yield* allPages("/v1/feed", {}, 50)
            const dares: { body: any } = yield* client("/v1/feed/dares/viral?limit=50")
            const sidebar: { body: any } = yield* client("/v1/feed/sidebar")
            return [
              feed.some((x) => x.token.address === cndr),
              dares.body.items.some((d: any) => d.mintAddress === cndr),
              [...sidebar.body.newest, ...sidebar.body.trending].some((t: any) => t.mintAddress === cndr)
            ]
          })
          assert.deepStrictEqual(yield* mentions, [true, true, true])
          const adminToken = yield* tokenFor(admin)
          const hide = yield* postJson(`/v1/tokens/admin/${cndr}/hide`, { reason: "test" }, bearer(adminToken))
          assert.strictEqual(hide.status, 200, JSON.stringify(hide.body))
          assert.deepStrictEqual(yield* mentions, [false, false, false])
          const share = yield* postJson("/v1/shares", { mintAddress: cndr }, bearer(yield* tokenFor(newAccount())))
          assert.deepStrictEqual([share.status, share.body.code], [410, "TOKEN_DELETED"])
          yield* postJson(`/v1/tokens/admin/${cndr}/unhide`, { reason: "test" }, bearer(adminToken))
          assert.deepStrictEqual(yield* mentions, [true, true, true])
        })
    )
  }
)
