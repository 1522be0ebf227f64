import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Address, maxUint128, maxUint256, parseAbi, parseEther } from "viem"
import { positionManagerAbi, weth9Abi } from "../../scripts/devnet/abis.ts"
import { directMinterArtifact } from "../fixtures/directMinter.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestServices } from "../support/TestServer.ts"
import { erc20Abi, exchange, indexedHead, npmAbi, poolAbi, read } from "./support.ts"

const chainId = 31337
const hex = (n: number) => `0x${n.toString(16).padStart(40, "0")}`
const directMinterAbi = parseAbi([
  "function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 liquidity)"
])
/** A position's identity across both kinds: the NFT token id, else the pool-level key. */
const keyOf = (p: { positionId: string | null; poolId: string; owner: string; tickLower: number; tickUpper: number }) =>
  p.positionId ?? `${p.poolId}:${p.owner}:${p.tickLower}:${p.tickUpper}`

layer(TestServices(["exchange", "indexer"]), { timeout: "120 seconds", excludeTestServices: true })(
  "exchange token routes",
  (it) => {
    it.effect("token overview: supply by eth_call, holders and fuel by SQL, price/TVL/market cap vs FDV; 400/404", () =>
      Effect.gen(function* () {
        const block = yield* indexedHead
        const sql = yield* SqlClient.SqlClient
        const launches = yield* sql<{
          token: string
          creator: string
          pool: string
        }>`SELECT token, creator, pool FROM launches WHERE chain_id = ${chainId}`
        assert.isAbove(launches.length, 0)
        for (const l of launches) {
          const res = yield* exchange(`/api/v1/tokens/${l.token}-${chainId}`)
          assert.strictEqual(res.status, 200)
          const t = res.body
          assert.strictEqual(
            t.totalSupply,
            (yield* read<bigint>(l.token, erc20Abi, "totalSupply", [], block)).toString()
          )
          const [row] = yield* sql<{ holders: number; given: string; n: number; withdrawn: string }>`
          SELECT (SELECT count(*)::int FROM token_balances WHERE chain_id = ${chainId} AND token = ${l.token} AND balance > 0) AS holders,
            (SELECT coalesce(sum(amount), 0)::text FROM fuel_events WHERE chain_id = ${chainId} AND token = ${l.token} AND kind = 'given') AS given,
            (SELECT count(*)::int FROM fuel_events WHERE chain_id = ${chainId} AND token = ${l.token} AND kind = 'given') AS n,
            (SELECT coalesce(sum(amount), 0)::text FROM fuel_events WHERE chain_id = ${chainId} AND token = ${l.token} AND kind = 'withdrawn') AS withdrawn`
          assert.strictEqual(t.holderCount, row!.holders)
          assert.strictEqual(t.launchpad.creator, l.creator)
          assert.strictEqual(t.launchpad.pool, `${l.pool}-${chainId}`)
          assert.strictEqual(t.launchpad.fuel.given, row!.given)
          assert.strictEqual(t.launchpad.fuel.count, row!.n)
          assert.strictEqual(t.launchpad.fuel.withdrawn, row!.withdrawn)
          // Circulating = supply − what the pools hold (eth_call balanceOf of each of its pools).
          const pools = yield* sql<{
            address: string
          }>`SELECT address FROM pools WHERE chain_id = ${chainId} AND (token0 = ${l.token} OR token1 = ${l.token})`
          let pooled = 0n
          for (const p of pools) pooled += yield* read<bigint>(l.token, erc20Abi, "balanceOf", [p.address], block)
          assert.strictEqual(t.circulatingSupply, (BigInt(t.totalSupply) - pooled).toString())
          if (t.priceUsd !== null) {
            assert.closeTo(t.fdvUsd, (Number(t.totalSupply) / 1e18) * t.priceUsd, 1e-9 * t.fdvUsd)
            assert.closeTo(
              t.marketCapUsd,
              (Number(t.circulatingSupply) / 1e18) * t.priceUsd,
              1e-9 * Math.max(1, t.marketCapUsd)
            )
            assert.isAtMost(t.marketCapUsd, t.fdvUsd)
            assert.closeTo(t.tvlUsd, (Number(pooled) / 1e18) * t.priceUsd, 1e-9 * Math.max(1, t.tvlUsd))
          }
          assert.isNumber(t.priceEth)
          assert.isAbove(t.priceEth, 0)
        }
        assert.strictEqual((yield* exchange(`/api/v1/tokens/0xabc-${chainId}`)).status, 400)
        const missing = yield* exchange(`/api/v1/tokens/${hex(7)}-${chainId}`)
        assert.strictEqual(missing.status, 404)
        assert.strictEqual(missing.body.code, "TOKEN_NOT_FOUND")
        const weth = (yield* AnvilChain).deployments.contracts.weth9.toLowerCase()
        const w = (yield* exchange(`/api/v1/tokens/${weth}-${chainId}`)).body
        assert.strictEqual(w.priceEth, 1)
        assert.isNull(w.launchpad)
      })
    )

    it.effect(
      "prices: 100 addresses → 200 (unknown ones in missing); 101 → 400 TOO_MANY_ADDRESSES; fire-meta the same",
      () =>
        Effect.gen(function* () {
          yield* indexedHead
          const sql = yield* SqlClient.SqlClient
          const tokens = yield* sql<{
            address: string
            priceUsd: number | null
          }>`SELECT address, price_usd FROM tokens WHERE chain_id = ${chainId}`
          const list = [
            ...tokens.map((t) => t.address),
            ...Array.from({ length: 100 - tokens.length }, (_, i) => hex(i + 1))
          ]
          const ok = yield* exchange(`/api/v1/tokens/prices?addresses=${list.join(",")}`)
          assert.strictEqual(ok.status, 200)
          assert.strictEqual(ok.body.items.length, tokens.length)
          assert.strictEqual(ok.body.missing.length, 100 - tokens.length)
          for (const t of tokens)
            assert.strictEqual(ok.body.items.find((i: any) => i.address === t.address).priceUsd, t.priceUsd)
          for (const route of ["prices", "fire-meta"]) {
            const over = yield* exchange(`/api/v1/tokens/${route}?addresses=${[...list, hex(999)].join(",")}`)
            assert.strictEqual(over.status, 400, route)
            assert.strictEqual(over.body.code, "TOO_MANY_ADDRESSES")
            assert.strictEqual(over.body.details.max, 100)
            assert.strictEqual((yield* exchange(`/api/v1/tokens/${route}?addresses=nope`)).status, 400)
          }
          const meta = (yield* exchange(`/api/v1/tokens/fire-meta?addresses=${tokens.map((t) => t.address).join(",")}`))
            .body
          const graduated = yield* sql<{
            token: string
          }>`SELECT DISTINCT token FROM graduation_events WHERE chain_id = ${chainId} AND step = 'graduated'`
          assert.isAbove(graduated.length, 0)
          for (const g of graduated)
            assert.strictEqual(meta.items.find((m: any) => m.address === g.token).graduation.state, "graduated")
          const launches = yield* sql<{
            token: string
            creator: string
          }>`SELECT token, creator FROM launches WHERE chain_id = ${chainId}`
          for (const l of launches)
            assert.strictEqual(meta.items.find((m: any) => m.address === l.token).creator, l.creator)
          // Claim/hide state from the client API's listings tables (nothing claimed in the seed): a claim and a hide
          // written there show up here.
          for (const m of meta.items) {
            assert.strictEqual(m.claimed, false)
            assert.strictEqual(m.hidden, false)
          }
          const l0 = launches[0]!
          const [user] = yield* sql<{
            id: string
          }>`INSERT INTO users (idp_did) VALUES ('did:test:exchange') RETURNING id`
          yield* sql`INSERT INTO token_metadata (chain_id, token_address, creator_id, creator_wallet, name, symbol, source)
        VALUES (${chainId}, ${l0.token}, ${user!.id}, ${l0.creator}, 'x', 'X', 'claim')`
          yield* sql`INSERT INTO token_hides (chain_id, token_address, hidden_by) VALUES (${chainId}, ${l0.token}, ${user!.id})`
          const after = (yield* exchange(`/api/v1/tokens/fire-meta?addresses=${l0.token}`)).body.items[0]
          assert.isTrue(after.claimed)
          assert.isTrue(after.hidden)
          yield* sql`DELETE FROM token_hides WHERE token_address = ${l0.token}`
          yield* sql`DELETE FROM token_metadata WHERE token_address = ${l0.token}`
        })
    )

    it.effect(
      "trending ranks launched tokens by the documented score; bluechip = WETH and the stablecoin; history buckets sum to SQL",
      () =>
        Effect.gen(function* () {
          yield* indexedHead
          const sql = yield* SqlClient.SqlClient
          const trending = (yield* exchange("/api/v1/tokens/trending")).body.items
          assert.isAbove(trending.length, 0)
          const scores = trending.map((t: any) => t.score)
          assert.deepStrictEqual(
            scores,
            [...scores].sort((a: number, b: number) => b - a)
          )
          for (const t of trending) {
            assert.isNotNull(t.token.launchpad)
            // score = 24 h USD volume + 3 × last-hour USD volume, recomputed from the swaps themselves.
            const [x] = yield* sql<{ day: number; hour: number }>`
          WITH asof AS (SELECT date_trunc('hour', block_timestamp) AS h FROM indexer_checkpoints WHERE chain_id = ${chainId})
          SELECT coalesce(sum(w.amount_usd) FILTER (WHERE w.block_timestamp >= (SELECT h FROM asof) - interval '23 hours'), 0)::float8 AS day,
            coalesce(sum(w.amount_usd) FILTER (WHERE w.block_timestamp >= (SELECT h FROM asof)), 0)::float8 AS hour
          FROM swaps w JOIN pools p ON p.chain_id = w.chain_id AND p.address = w.pool
          WHERE w.chain_id = ${chainId} AND (p.token0 = ${t.token.address} OR p.token1 = ${t.token.address})`
            assert.closeTo(t.score, x!.day + 3 * x!.hour, 1e-6 * Math.max(1, t.score))
          }
          const chain = yield* AnvilChain
          const blue = (yield* exchange("/api/v1/tokens/bluechip")).body.items.map((t: any) => t.address)
          assert.deepStrictEqual(blue, [
            chain.deployments.contracts.weth9.toLowerCase(),
            chain.deployments.contracts.stablecoin.toLowerCase()
          ])
          const token = trending[0].token
          for (const timeframe of ["days", "hours", "minutes"]) {
            const h = (yield* exchange(
              `/api/v1/tokens/${token.tokenId}/history?timeframe=${timeframe}&from=0&to=4000000000`
            )).body
            const n = (yield* sql<{
              n: number
            }>`SELECT count(*)::int AS n FROM swaps w JOIN pools p ON p.chain_id = w.chain_id AND p.address = w.pool
          WHERE w.chain_id = ${chainId} AND (p.token0 = ${token.address} OR p.token1 = ${token.address})`)[0]!.n
            assert.strictEqual(
              h.points.reduce((a: number, c: any) => a + c.swapCount, 0),
              n,
              timeframe
            )
          }
          assert.strictEqual((yield* exchange(`/api/v1/tokens/${token.tokenId}/history?timeframe=weeks`)).status, 400)
        })
    )

    it.effect(
      "wallet positions: amounts equal decreaseLiquidity simulated by eth_call, fees equal collect; pool positions list them",
      () =>
        Effect.gen(function* () {
          const block = yield* indexedHead
          const sql = yield* SqlClient.SqlClient
          const chain = yield* AnvilChain
          const npm = chain.deployments.contracts.positionManager
          const owners = yield* sql<{
            owner: string
            n: number
          }>`SELECT owner, count(*)::int AS n FROM nft_positions WHERE chain_id = ${chainId} AND liquidity > 0 GROUP BY owner`
          assert.isAbove(owners.length, 0)
          for (const o of owners) {
            const res = (yield* exchange(`/api/v1/users/${o.owner}/positions/active`)).body
            const nft = res.items.filter((p: any) => p.positionId !== null)
            assert.strictEqual(nft.length, o.n)
            for (const p of nft) {
              const onChain = yield* read<readonly unknown[]>(npm, npmAbi, "positions", [BigInt(p.positionId)], block)
              assert.strictEqual(p.liquidity, (onChain[7] as bigint).toString())
              const sim = yield* Effect.promise(() =>
                chain.publicClient.simulateContract({
                  address: npm,
                  abi: npmAbi,
                  functionName: "decreaseLiquidity",
                  account: o.owner as Address,
                  blockNumber: block,
                  args: [
                    {
                      tokenId: BigInt(p.positionId),
                      liquidity: onChain[7] as bigint,
                      amount0Min: 0n,
                      amount1Min: 0n,
                      deadline: maxUint128
                    }
                  ]
                })
              )
              assert.strictEqual(p.amount0, sim.result[0].toString())
              assert.strictEqual(p.amount1, sim.result[1].toString())
              assert.match(p.uncollectedFees0, /^\d+$/)
            }
          }
          const [pos] = yield* sql<{
            pool: string
            n: number
          }>`SELECT pool, count(*)::int AS n FROM nft_positions WHERE chain_id = ${chainId} AND liquidity > 0 GROUP BY pool ORDER BY 2 DESC LIMIT 1`
          const poolPositions = (yield* exchange(`/api/v1/pools/${pos!.pool}-${chainId}/positions?limit=1`)).body
          assert.strictEqual(poolPositions.page.total, pos!.n)
          assert.strictEqual(poolPositions.items.filter((p: any) => p.positionId !== null).length, 1)
          assert.strictEqual((yield* exchange(`/api/v1/users/0x12/positions/active`)).status, 400)
          assert.deepStrictEqual((yield* exchange(`/api/v1/users/${hex(5)}/positions/active`)).body.items, [])
        })
    )

    // Runs last: it adds positions to the WETH/stablecoin pool.
    it.effect(
      "pool positions: NFTs and direct positions are one list; offset pages visit each once; total counts both, also past the end",
      () =>
        Effect.gen(function* () {
          yield* indexedHead
          const sql = yield* SqlClient.SqlClient
          const chain = yield* AnvilChain
          const { positionManager, stablecoin, weth9 } = chain.deployments.contracts
          const [deployer, lpA, lpB] = [chain.accounts[0]!, chain.accounts[1]!, chain.accounts[2]!]
          const write = chain.sender.write
          const [token0, token1] = [weth9, stablecoin].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)) as [
            Address,
            Address
          ]
          const pool = yield* Effect.promise(() =>
            chain.publicClient.readContract({
              address: chain.deployments.contracts.factory,
              functionName: "getPool",
              args: [token0, token1, 500],
              abi: parseAbi(["function getPool(address, address, uint24) view returns (address)"])
            })
          )
          const spacing = yield* read<number>(
            pool,
            poolAbi,
            "tickSpacing",
            [],
            yield* Effect.promise(() => chain.blockNumber())
          )
          const [, tick] = yield* read<readonly [bigint, number]>(
            pool,
            poolAbi,
            "slot0",
            [],
            yield* Effect.promise(() => chain.blockNumber())
          )
          const base = Math.floor(tick / spacing) * spacing
          const minter = yield* Effect.promise(() => chain.sender.deploy(deployer, directMinterArtifact()))
          yield* Effect.promise(async () => {
            await write(deployer, weth9, weth9Abi, "deposit", [], parseEther("100"))
            for (const token of [weth9, stablecoin]) {
              await write(deployer, token, erc20Abi, "approve", [positionManager, maxUint256])
              await write(deployer, token, erc20Abi, "approve", [minter, maxUint256])
            }
            // Three more NFTs (one out of range) next to the seeded full-range one; ticks in tick spacings from the price.
            for (const [recipient, lower, upper, amount] of [
              [lpA, -100, 100, "1"],
              [lpB, -10, 10, "0.5"],
              [deployer, 20, 40, "0.2"]
            ] as const) {
              await write(deployer, positionManager, positionManagerAbi, "mint", [
                {
                  token0,
                  token1,
                  fee: 500,
                  tickLower: base + lower * spacing,
                  tickUpper: base + upper * spacing,
                  amount0Desired: parseEther(amount),
                  amount1Desired: parseEther(amount) * 3_000n,
                  amount0Min: 0n,
                  amount1Min: 0n,
                  recipient: recipient.address,
                  deadline: maxUint256
                }
              ])
            }
          })
          yield* indexedHead
          const nftLiquidity = (yield* sql<{ liquidity: string }>`
        SELECT n.liquidity::text AS liquidity FROM nft_positions n WHERE n.chain_id = ${chainId} AND n.pool = ${pool.toLowerCase()}
        ORDER BY n.liquidity DESC`).map((r) => BigInt(r.liquidity))
          assert.strictEqual(nftLiquidity.length, 4)
          // Direct positions: above every NFT, tied with one (NFTs come first on a tie), and at the bottom (two of one owner).
          yield* Effect.promise(async () => {
            for (const [recipient, lower, upper, liquidity] of [
              [lpA, -20, 20, nftLiquidity[0]! + 1n],
              [lpB, -50, 30, nftLiquidity[2]!],
              [lpB, -10, 10, 1_000n],
              [lpB, 10, 20, 1_000n]
            ] as const) {
              await write(deployer, minter, directMinterAbi, "mint", [
                pool,
                recipient.address,
                base + lower * spacing,
                base + upper * spacing,
                liquidity
              ])
            }
          })
          yield* indexedHead
          const pm = positionManager.toLowerCase()
          const address = pool.toLowerCase()
          // Independent SQL: both kinds, in the documented order (liquidity desc, NFT token id, then the direct key).
          const expected = yield* sql<{ key: string; liquidity: string; nft: boolean }>`
        SELECT key, liquidity::text AS liquidity, nft FROM (
          SELECT token_id::text AS key, liquidity, true AS nft, token_id, NULL AS owner, NULL::int AS tick_lower, NULL::int AS tick_upper
          FROM nft_positions WHERE chain_id = ${chainId} AND pool = ${address} AND liquidity > 0
          UNION ALL
          SELECT ${`${address}-${chainId}`}::text || ':' || owner || ':' || tick_lower || ':' || tick_upper, liquidity, false, NULL, owner, tick_lower, tick_upper
          FROM positions WHERE chain_id = ${chainId} AND pool = ${address} AND liquidity > 0 AND owner <> ${pm}
        ) x ORDER BY x.liquidity DESC, x.token_id NULLS LAST, x.owner, x.tick_lower, x.tick_upper`
          assert.strictEqual(expected.length, 8)
          assert.strictEqual(expected.filter((e) => !e.nft).length, 4)
          assert.isFalse(expected[0]!.nft, "the largest position is a direct one")
          const poolId = `${address}-${chainId}`
          const seen: Array<string> = []
          let offset: number | null = 0
          while (offset !== null) {
            const res: any = yield* exchange(`/api/v1/pools/${poolId}/positions?limit=3&offset=${offset}`)
            assert.strictEqual(res.status, 200)
            const { items, page } = res.body
            assert.isAtMost(items.length, 3)
            assert.strictEqual(page.total, expected.length)
            assert.strictEqual(page.offset, offset)
            assert.strictEqual(page.nextOffset, offset + items.length < expected.length ? offset + items.length : null)
            for (const p of items) assert.strictEqual(p.poolId, poolId)
            seen.push(...items.map(keyOf))
            offset = page.nextOffset
          }
          assert.deepStrictEqual(
            seen,
            expected.map((e) => e.key)
          )
          assert.strictEqual(new Set(seen).size, seen.length)
          for (const past of [expected.length, expected.length + 5]) {
            const end = (yield* exchange(`/api/v1/pools/${poolId}/positions?limit=3&offset=${past}`)).body
            assert.deepStrictEqual(end.items, [])
            assert.strictEqual(end.page.total, expected.length)
            assert.isNull(end.page.nextOffset)
          }
          // The default page holds all of them, in the same order.
          const all = (yield* exchange(`/api/v1/pools/${poolId}/positions`)).body
          assert.deepStrictEqual(all.items.map(keyOf), seen)
          // A wallet with only direct positions lists them (no NFT, so no fees read).
          const wallet = (yield* exchange(`/api/v1/users/${lpB.address}/positions/active`)).body.items
          assert.deepStrictEqual(
            wallet
              .filter((p: any) => p.positionId === null)
              .map(keyOf)
              .sort(),
            expected
              .filter((e) => !e.nft && e.key.includes(lpB.address.toLowerCase()))
              .map((e) => e.key)
              .sort()
          )
          for (const p of wallet.filter((p: any) => p.positionId === null)) assert.isNull(p.uncollectedFees0)
        })
    )
  }
)
