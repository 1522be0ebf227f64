import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { BadRequest } from "../../platform/ApiError.ts"
import { type CommentView, toCommentView } from "./Comment.ts"
import { CommentsRepo } from "./CommentsRepo.ts"

/**
 * The yaps of a profile (GET /v1/users/stats `yaps`, GET /v1/users/yaps): a user's live comments, newest first,
 * keyset by comment id (ids only grow, so pages are stable while the user writes). Read-only, so the account routes
 * can use it without the comment write path.
 */
export class UserYaps extends Context.Service<
  UserYaps,
  {
    readonly count: (userId: string) => Effect.Effect<number>
    readonly page: (
      userId: string,
      query: {
        readonly cursor: string | undefined
        readonly limit: number
        readonly viewer: string | null
      }
    ) => Effect.Effect<{ readonly items: ReadonlyArray<CommentView>; readonly nextCursor: string | null }, BadRequest>
  }
>()("app/comments/UserYaps") {
  static readonly layer = Layer.effect(
    UserYaps,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* CommentsRepo
      return UserYaps.of({
        count: (userId) =>
          sql<{
            n: number
          }>`SELECT count(*)::int AS n FROM comments WHERE author_id = ${userId} AND deleted_at IS NULL`.pipe(
            Effect.map((rows) => rows[0]?.n ?? 0),
            Effect.orDie
          ),
        page: Effect.fn("UserYaps.page")(function* (userId, query) {
          if (query.cursor !== undefined && !/^[1-9]\d{0,17}$/.test(query.cursor)) {
            return yield* new BadRequest({
              code: "INVALID_CURSOR",
              message: "The cursor is not one this route returned"
            })
          }
          const ids = yield* sql<{ id: string }>`
            SELECT id::text AS id FROM comments
            WHERE author_id = ${userId} AND deleted_at IS NULL
              ${query.cursor === undefined ? sql`` : sql`AND id < ${query.cursor}`}
            ORDER BY id DESC LIMIT ${query.limit + 1}`.pipe(Effect.orDie)
          const page = ids.slice(0, query.limit).map((r) => Number(r.id))
          const rows = yield* repo.manyById(page, query.viewer)
          const items = rows.map((r) => toCommentView(r, query.viewer !== null)).sort((a, b) => b.id - a.id)
          return { items, nextCursor: ids.length > query.limit ? String(page[page.length - 1]) : null }
        })
      })
    })
  )
}
