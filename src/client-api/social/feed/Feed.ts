import { Context, Effect, Layer, Option } from "effect"
import { getAddress } from "viem"
import { BadRequest } from "../../../platform/ApiError.ts"
import { FeedActor, FeedItem, FeedPage, FeedToken, type FeedType } from "./FeedItem.ts"
import { type FeedPosition, FeedRepo, type FeedRow, type FeedSource } from "./FeedRepo.ts"

const SOURCES: Record<FeedType, ReadonlyArray<FeedSource>> = {
  ALL: ["LAUNCH", "FUEL", "YAP"],
  LAUNCHES: ["LAUNCH"],
  YAPS: ["YAP"],
  FUELS: ["FUEL"]
}

const encode = (p: FeedPosition) =>
  Buffer.from(JSON.stringify([p.tier, p.atUs, p.src, p.seq, p.asOfBlock, p.asOfUs])).toString("base64url")
const int = (x: unknown): x is string => typeof x === "string" && /^-?\d{1,20}$/.test(x)
const decode = (cursor: string): Option.Option<FeedPosition> => {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString())
    return Array.isArray(v) &&
      v.length === 6 &&
      (v[0] === 0 || v[0] === 1) &&
      int(v[1]) &&
      Number.isInteger(v[2]) &&
      v[2] >= 0 &&
      v[2] <= 9 &&
      int(v[3]) &&
      int(v[4]) &&
      int(v[5])
      ? Option.some({ tier: v[0], atUs: v[1], src: v[2], seq: v[3], asOfBlock: v[4], asOfUs: v[5] })
      : Option.none()
  } catch {
    return Option.none()
  }
}

const checksum = (a: string | null) => (a === null ? null : getAddress(a))

export const toFeedItem = (r: FeedRow) =>
  new FeedItem({
    id: r.k,
    type: r.type,
    at: r.at.toISOString(),
    token: new FeedToken({ address: getAddress(r.token), symbol: r.symbol, name: r.name, image: r.tokenImage }),
    actor: new FeedActor({
      walletAddress: checksum(r.actor),
      userId: r.userId,
      username: r.username,
      name: r.userName,
      image: r.image
    }),
    amount: r.amount,
    txHash: r.txHash,
    text: r.text,
    relevance: r.relevance
  })

/** Cursor-paginated streams over the feed sources; one SQL query per page. */
export class Feed extends Context.Service<
  Feed,
  {
    readonly feed: (input: {
      readonly type: FeedType
      /** The signed-in viewer; personalisation needs a wallet (holdings, launches) or a user (favorites). */
      readonly viewer: Option.Option<{ readonly walletAddress: string | null; readonly id: string }>
      readonly cursor?: string | undefined
      readonly limit?: number | undefined
    }) => Effect.Effect<FeedPage, BadRequest>
    /** An unpersonalised stream of `sources`. */
    readonly stream: (
      sources: ReadonlyArray<FeedSource>,
      cursor: string | undefined,
      limit: number | undefined
    ) => Effect.Effect<FeedPage, BadRequest>
  }
>()("app/feed/Feed") {
  static readonly layer = Layer.effect(
    Feed,
    Effect.gen(function* () {
      const repo = yield* FeedRepo
      const page = Effect.fn("Feed.page")(function* (
        sources: ReadonlyArray<FeedSource>,
        viewer: Option.Option<{ readonly walletAddress: string | null; readonly id: string }>,
        cursor: string | undefined,
        limit = 20
      ) {
        const after = cursor === undefined ? Option.none() : decode(cursor)
        if (cursor !== undefined && Option.isNone(after)) {
          return yield* new BadRequest({
            code: "INVALID_CURSOR",
            message: "Malformed cursor: pass a nextCursor back unchanged"
          })
        }
        const rows = yield* repo.page({
          sources,
          viewer: Option.map(viewer, (v) => ({ wallet: (v.walletAddress ?? "").toLowerCase(), userId: v.id })),
          after,
          limit
        })
        const shown = rows.slice(0, limit)
        const last = shown[shown.length - 1]
        return new FeedPage({
          items: shown.map(toFeedItem),
          nextCursor: rows.length > limit && last !== undefined ? encode(last) : null
        })
      })
      return Feed.of({
        feed: ({ cursor, limit, type, viewer }) => page(SOURCES[type], viewer, cursor, limit),
        stream: (sources, cursor, limit) => page(sources, Option.none(), cursor, limit)
      })
    })
  )
}
