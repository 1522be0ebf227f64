import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { Chain } from "../../../platform/Chain.ts"
import { toCommentView } from "../Comment.ts"
import { invalidCursor } from "../CommentErrors.ts"
import { CommentsRepo } from "../CommentsRepo.ts"
import type { BadRequest } from "../../../platform/ApiError.ts"
import { Favorite, FavoritePage, FavoriteToken, type TargetType } from "./Engagement.ts"

interface Row {
  readonly targetType: TargetType
  readonly targetId: string
  readonly createdAt: Date
  readonly seq: string
  readonly name: string | null
  readonly symbol: string | null
  readonly image: string | null
}

/**
 * The caller's favorites, newest first, keyset by the row's sequence (stable while favorites are added). One query
 * for the page with the token names, one for the page's comments: two statements per page whatever its size.
 */
export class Favorites extends Context.Service<
  Favorites,
  {
    readonly list: (
      userId: string,
      query: {
        readonly type: TargetType | undefined
        readonly limit: number
        readonly cursor: string | undefined
      }
    ) => Effect.Effect<FavoritePage, BadRequest>
  }
>()("app/engagement/Favorites") {
  static readonly layer = Layer.effect(
    Favorites,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const comments = yield* CommentsRepo
      const { chainId } = yield* Chain

      const list = Effect.fn("Favorites.list")(function* (
        userId: string,
        query: {
          readonly type: TargetType | undefined
          readonly limit: number
          readonly cursor: string | undefined
        }
      ) {
        if (query.cursor !== undefined && !/^[1-9]\d{0,17}$/.test(query.cursor)) return yield* invalidCursor()
        const rows = yield* sql<Row>`
          SELECT f.target_type, f.target_id, f.created_at, f.seq::text AS seq, t.name, t.symbol, m.image
          FROM favorites f
          LEFT JOIN tokens t ON f.target_type = 'token' AND t.chain_id = ${chainId} AND t.address = f.target_id
          LEFT JOIN token_metadata m ON f.target_type = 'token' AND m.chain_id = ${chainId} AND m.token_address = f.target_id
          WHERE f.user_id = ${userId}
            ${query.type === undefined ? sql`` : sql`AND f.target_type = ${query.type}`}
            ${query.cursor === undefined ? sql`` : sql`AND f.seq < ${query.cursor}`}
          ORDER BY f.seq DESC
          LIMIT ${query.limit + 1}`.pipe(Effect.orDie)
        const page = rows.slice(0, query.limit)
        const ids = page.filter((r) => r.targetType === "comment").map((r) => Number(r.targetId))
        const found = new Map((yield* comments.manyById(ids, userId)).map((c) => [c.id, c]))
        const items = page.map((r) => {
          const comment = found.get(r.targetId)
          return new Favorite({
            targetType: r.targetType,
            targetId: r.targetType === "token" ? getAddress(r.targetId) : r.targetId,
            favoritedAt: r.createdAt.toISOString(),
            comment: comment === undefined ? null : toCommentView(comment, true),
            token:
              r.targetType === "token"
                ? new FavoriteToken({
                    mintAddress: getAddress(r.targetId),
                    name: r.name,
                    symbol: r.symbol,
                    image: r.image
                  })
                : null
          })
        })
        return new FavoritePage({ items, nextCursor: rows.length > query.limit ? page[page.length - 1]!.seq : null })
      })

      return Favorites.of({ list })
    })
  )
}
