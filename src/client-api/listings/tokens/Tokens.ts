import { Context, Effect, Layer, Option } from "effect"
import { getAddress } from "viem"
import { BadRequest, type Gone, type NotFound } from "../../../platform/ApiError.ts"
import { LaunchpadReader } from "../LaunchpadReader.ts"
import { dbAddress, tokenDeleted, tokenNotFound } from "../Listing.ts"
import { ListingsRepo } from "../ListingsRepo.ts"
import { toPublicProfile, type User } from "../../accounts/users/User.ts"
import { Users } from "../../accounts/users/Users.ts"
import { foldPosition } from "./Position.ts"
import {
  Buyer,
  BuyerBucket,
  BuyerChart,
  BuyerPage,
  FuelEntry,
  FuelPage,
  TokenDetail,
  TokenGraduation,
  TokenMarket,
  TokenMetadataView,
  TokenPosition
} from "./Token.ts"
import { type TokenRow, TokensRepo } from "./TokensRepo.ts"

const invalidCursor = () =>
  new BadRequest({ code: "INVALID_CURSOR", message: "The cursor is not one this route returned" })
const encodeCursor = (parts: ReadonlyArray<string | number>) => Buffer.from(JSON.stringify(parts)).toString("base64url")
const decodeCursor = (cursor: string): ReadonlyArray<unknown> | undefined => {
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString())
    return Array.isArray(parts) ? parts : undefined
  } catch {
    return undefined
  }
}

/** WETH per token from the pool price (token1 per token0, both 18 decimals here). */
const priceEthOf = (row: TokenRow) =>
  row.poolPrice === null || row.poolPrice <= 0 ? null : row.tokenIsToken0 ? row.poolPrice : 1 / row.poolPrice
const units = (raw: string, decimals: number) => Number(raw) / 10 ** decimals

/** Token pages over indexed data plus the listing: detail, holders, buyer chart, fuel history, a wallet's position. */
export class Tokens extends Context.Service<
  Tokens,
  {
    readonly detail: (mint: string) => Effect.Effect<TokenDetail, NotFound | Gone>
    readonly buyers: (
      mint: string,
      limit: number,
      cursor: string | undefined
    ) => Effect.Effect<BuyerPage, NotFound | Gone | BadRequest>
    readonly buyerChart: (
      mint: string,
      bucket: "1h" | "1d",
      limit: number
    ) => Effect.Effect<BuyerChart, NotFound | Gone>
    readonly fuels: (
      mint: string,
      limit: number,
      cursor: string | undefined
    ) => Effect.Effect<FuelPage, NotFound | Gone | BadRequest>
    readonly position: (user: User, mint: string) => Effect.Effect<TokenPosition, NotFound | Gone | BadRequest>
    readonly images: (addresses: ReadonlyArray<string>) => Effect.Effect<Record<string, string | null>>
    /** The visible listing row (404 / 410 otherwise), for features that act on a token (reports). */
    readonly visible: (mint: string) => Effect.Effect<TokenRow, NotFound | Gone>
  }
>()("app/tokens/Tokens") {
  static readonly layer = Layer.effect(
    Tokens,
    Effect.gen(function* () {
      const repo = yield* TokensRepo
      const listings = yield* ListingsRepo
      const users = yield* Users
      const { chainId, fireLaunch } = yield* LaunchpadReader

      const visible = (mint: string) =>
        Effect.flatMap(repo.find(chainId, dbAddress(mint)), (row) =>
          Option.isNone(row)
            ? Effect.fail(tokenNotFound(getAddress(mint)))
            : row.value.hidden
              ? Effect.fail(tokenDeleted(getAddress(mint)))
              : Effect.succeed(row.value)
        )

      const detail = Effect.fn("Tokens.detail")(function* (mint: string) {
        const row = yield* visible(mint)
        const metadata = yield* listings.metadata(chainId, row.address)
        const creator = Option.isSome(metadata) ? yield* users.findById(metadata.value.creatorId) : Option.none<User>()
        const priceEth = priceEthOf(row)
        return new TokenDetail({
          chainId,
          mintAddress: getAddress(row.address),
          name: row.name,
          symbol: row.symbol,
          decimals: row.decimals,
          totalSupply: row.totalSupply,
          creatorAddress: getAddress(row.creator),
          creatorId: Option.match(metadata, { onNone: () => null, onSome: (m) => m.creatorId }),
          creator: Option.match(creator, {
            onNone: () => null,
            onSome: (u) => (u.hiddenAt === null ? toPublicProfile(u) : null)
          }),
          claimed: Option.isSome(metadata),
          holders: row.holderCount,
          metadata: Option.match(metadata, {
            onNone: () => null,
            onSome: (m) =>
              new TokenMetadataView({
                description: m.description,
                category: m.category,
                image: m.image,
                source: m.source,
                claimedAt: m.createdAt.toISOString()
              })
          }),
          market: new TokenMarket({
            pool: getAddress(row.pool),
            fee: row.fee,
            priceEth,
            priceUsd: row.priceUsd,
            marketCapUsd: row.priceUsd === null ? null : row.priceUsd * units(row.totalSupply, row.decimals),
            liquidityUsd: row.tvlUsd,
            volume24hUsd: row.volume24hUsd,
            swapCount: row.swapCount
          }),
          graduation: new TokenGraduation({
            state:
              row.graduatedAt !== null
                ? "graduated"
                : row.graduationConditionAt !== null
                  ? "condition_recorded"
                  : "active",
            conditionRecordedAt: row.graduationConditionAt?.toISOString() ?? null,
            graduatedAt: row.graduatedAt?.toISOString() ?? null
          }),
          fuel: { count: row.fuelCount, given: row.fuelGiven, withdrawn: row.fuelWithdrawn },
          launchedAt: row.launchedAt.toISOString(),
          launchTxHash: row.launchTxHash,
          launchBlock: row.launchBlock
        })
      })

      const buyers = Effect.fn("Tokens.buyers")(function* (mint: string, limit: number, cursor: string | undefined) {
        const row = yield* visible(mint)
        let after: { rank: number; balance: string; holder: string } | undefined
        if (cursor !== undefined) {
          const parts = decodeCursor(cursor)
          const [rank, balance, holder] = parts ?? []
          if (
            typeof rank !== "number" ||
            typeof balance !== "string" ||
            !/^\d+$/.test(balance) ||
            typeof holder !== "string" ||
            !/^0x[0-9a-f]{40}$/.test(holder)
          )
            return yield* invalidCursor()
          after = { rank, balance, holder }
        }
        // The pool (it holds the unsold supply) and FireLaunch (rounding dust) are not buyers.
        const exclude = fireLaunch === undefined ? [row.pool] : [row.pool, dbAddress(fireLaunch)]
        const page = yield* repo.holders({ chainId, token: row.address, exclude, after, limit: limit + 1 })
        const shown = page.slice(0, limit)
        const holders = yield* users.findByWallets(shown.map((b) => getAddress(b.holder)))
        const supply = Number(row.totalSupply)
        const first = (after?.rank ?? 0) + 1
        const items = shown.map((b, i) => {
          const user = holders.get(getAddress(b.holder))
          return new Buyer({
            rank: first + i,
            address: getAddress(b.holder),
            balance: b.balance,
            share: supply > 0 ? Number(b.balance) / supply : 0,
            user:
              user === undefined || user.hiddenAt !== null
                ? null
                : { id: user.id, username: user.username, name: user.name, image: user.image }
          })
        })
        const last = shown.at(-1)
        return new BuyerPage({
          items,
          nextCursor:
            page.length > limit && last !== undefined
              ? encodeCursor([first + limit - 1, last.balance, last.holder])
              : null
        })
      })

      const buyerChart = Effect.fn("Tokens.buyerChart")(function* (mint: string, bucket: "1h" | "1d", limit: number) {
        const row = yield* visible(mint)
        const rows = yield* repo.buyerBuckets({ chainId, token: row.address, bucket, limit })
        return new BuyerChart({
          bucket,
          items: rows.map((b) => new BuyerBucket({ ...b, bucketStart: b.bucketStart.toISOString() }))
        })
      })

      const fuels = Effect.fn("Tokens.fuels")(function* (mint: string, limit: number, cursor: string | undefined) {
        const row = yield* visible(mint)
        let before: { blockNumber: string; logIndex: number } | undefined
        if (cursor !== undefined) {
          const [blockNumber, logIndex] = decodeCursor(cursor) ?? []
          if (typeof blockNumber !== "string" || !/^\d+$/.test(blockNumber) || typeof logIndex !== "number") {
            return yield* invalidCursor()
          }
          before = { blockNumber, logIndex }
        }
        const rows = yield* repo.fuels({ chainId, token: row.address, before, limit: limit + 1 })
        const shown = rows.slice(0, limit)
        const last = shown.at(-1)
        return new FuelPage({
          items: shown.map(
            (f) =>
              new FuelEntry({
                kind: f.kind,
                from: f.sender === null ? null : getAddress(f.sender),
                creator: getAddress(f.creator),
                amount: f.amount,
                txHash: f.txHash,
                blockNumber: f.blockNumber,
                timestamp: f.blockTimestamp.toISOString()
              })
          ),
          nextCursor: rows.length > limit && last !== undefined ? encodeCursor([last.blockNumber, last.logIndex]) : null
        })
      })

      const position = Effect.fn("Tokens.position")(function* (user: User, mint: string) {
        if (user.walletAddress === null) {
          return yield* new BadRequest({
            code: "WALLET_REQUIRED",
            message: "This account has no wallet, so it holds no position"
          })
        }
        const row = yield* visible(mint)
        const wallet = dbAddress(user.walletAddress)
        const balance = yield* repo.balanceOf(chainId, row.address, wallet)
        const f = foldPosition(yield* repo.swapsTo(chainId, row.pool, wallet), row.tokenIsToken0)
        const priceEth = priceEthOf(row)
        const value = priceEth === null ? null : BigInt(Math.round(Number(balance) * priceEth))
        const valueUsd = row.priceUsd === null ? null : units(balance, row.decimals) * row.priceUsd
        return new TokenPosition({
          mintAddress: getAddress(row.address),
          wallet: getAddress(wallet),
          decimals: row.decimals,
          balance,
          bought: f.bought.toString(),
          sold: f.sold.toString(),
          buys: f.buys,
          sells: f.sells,
          costBasisWei: f.costBasisWei.toString(),
          realizedPnlWei: f.realizedPnlWei.toString(),
          currentValueWei: value?.toString() ?? null,
          unrealizedPnlWei: value === null ? null : (value - f.costBasisWei).toString(),
          costBasisUsd: f.costBasisUsd,
          currentValueUsd: valueUsd,
          unrealizedPnlUsd: valueUsd === null ? null : valueUsd - f.costBasisUsd
        })
      })

      const images = (addresses: ReadonlyArray<string>) =>
        Effect.map(repo.images(chainId, [...new Set(addresses.map(dbAddress))]), (rows) => {
          const found = new Map(rows.map((r) => [r.tokenAddress, r.image]))
          return Object.fromEntries(addresses.map((a) => [getAddress(a), found.get(dbAddress(a)) ?? null]))
        })

      return Tokens.of({ detail, buyers, buyerChart, fuels, position, images, visible })
    })
  )
}
