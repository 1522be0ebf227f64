import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Chain } from "../../platform/Chain.ts"
import type { CommentRow } from "./Comment.ts"

export type TokenState = "missing" | "hidden" | "visible"

/** Where a page starts: strictly after `postNumber` in the page's order. */
export interface PageInput {
  readonly order: "newest" | "oldest"
  readonly after: number | undefined
  readonly limit: number
  readonly viewer: string | null
}

/**
 * All SQL of comments and comment_threads (sql/0050_create_comments.sql). Reads return `CommentRow`s joined with
 * the author and, for a viewer, their reaction and favorite. Writes run in the caller's transaction.
 */
export class CommentsRepo extends Context.Service<
  CommentsRepo,
  {
    readonly tokenState: (token: string) => Effect.Effect<TokenState>
    readonly byId: (id: number, viewer: string | null) => Effect.Effect<Option.Option<CommentRow>>
    readonly manyById: (ids: ReadonlyArray<number>, viewer: string | null) => Effect.Effect<ReadonlyArray<CommentRow>>
    readonly byPostNumber: (
      token: string,
      postNumber: number,
      viewer: string | null
    ) => Effect.Effect<Option.Option<CommentRow>>
    /** Top-level comments of a token (replies are reached through their parent). */
    readonly topLevel: (token: string, page: PageInput) => Effect.Effect<ReadonlyArray<CommentRow>>
    readonly replies: (parentId: number, page: PageInput) => Effect.Effect<ReadonlyArray<CommentRow>>
    readonly commentCount: (token: string) => Effect.Effect<number>
    /** The newest `limit` live comments of each token, in one statement (a LATERAL per token over (token, post_number)). */
    readonly latest: (
      tokens: ReadonlyArray<string>,
      limit: number,
      viewer: string | null
    ) => Effect.Effect<ReadonlyArray<CommentRow>>
    /** Takes the thread's next post number (locks the thread row until commit) and counts the comment. */
    readonly nextPostNumber: (token: string) => Effect.Effect<number>
    readonly usersByUsername: (
      usernames: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<{ readonly id: string; readonly username: string }>>
    readonly insert: (input: {
      readonly token: string
      readonly postNumber: number
      readonly authorId: string
      readonly replyTo: number | null
      readonly text: string
      readonly image: string | null
      readonly mentions: ReadonlyArray<{ readonly userId: string; readonly username: string }>
    }) => Effect.Effect<number>
    readonly countReply: (parentId: number) => Effect.Effect<void>
  }
>()("app/comments/CommentsRepo") {
  static readonly layer = Layer.effect(
    CommentsRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { chainId } = yield* Chain

      const select = (viewer: string | null) =>
        sql`
          SELECT c.id::text AS id, c.token, c.post_number, c.reply_to::text AS reply_to, c.text, c.image, c.mentions,
            c.reply_count, c.like_count, c.dislike_count, c.favorite_count, c.created_at, c.edited_at, c.deleted_at,
            c.author_id, u.username AS author_username, u.name AS author_name, u.image AS author_image,
            u.wallet_address AS author_wallet
            ${
              viewer === null
                ? sql``
                : sql`,
              (SELECT r.kind FROM reactions r
                WHERE r.user_id = ${viewer} AND r.target_type = 'comment' AND r.target_id = c.id::text) AS viewer_kind,
              EXISTS (SELECT 1 FROM favorites f
                WHERE f.user_id = ${viewer} AND f.target_type = 'comment' AND f.target_id = c.id::text) AS viewer_favorite`
            }
          FROM comments c JOIN users u ON u.id = c.author_id`

      const keyset = (page: PageInput) =>
        page.after === undefined
          ? sql``
          : page.order === "newest"
            ? sql`AND c.post_number < ${page.after}`
            : sql`AND c.post_number > ${page.after}`
      const order = (page: PageInput) =>
        page.order === "newest" ? sql`ORDER BY c.post_number DESC` : sql`ORDER BY c.post_number ASC`
      const rows = (statement: Effect.Effect<ReadonlyArray<any>, any>) =>
        statement.pipe(
          Effect.map((r) => r as ReadonlyArray<CommentRow>),
          Effect.orDie
        )
      const one = (statement: Effect.Effect<ReadonlyArray<any>, any>) =>
        rows(statement).pipe(Effect.map((r) => Option.fromNullishOr(r[0])))

      return CommentsRepo.of({
        tokenState: (token) =>
          sql<{ hidden: boolean }>`
            SELECT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = t.chain_id AND h.token_address = t.address) AS hidden
            FROM tokens t JOIN launches l ON l.chain_id = t.chain_id AND l.token = t.address
            WHERE t.chain_id = ${chainId} AND t.address = ${token} AND t.is_launch`.pipe(
            Effect.map((r): TokenState => (r[0] === undefined ? "missing" : r[0].hidden ? "hidden" : "visible")),
            Effect.orDie
          ),
        byId: (id, viewer) => one(sql`${select(viewer)} WHERE c.id = ${id}`),
        manyById: (ids, viewer) =>
          ids.length === 0 ? Effect.succeed([]) : rows(sql`${select(viewer)} WHERE c.id IN ${sql.in(ids)}`),
        byPostNumber: (token, postNumber, viewer) =>
          one(sql`${select(viewer)} WHERE c.token = ${token} AND c.post_number = ${postNumber}`),
        topLevel: (token, page) =>
          rows(sql`
            ${select(page.viewer)} WHERE c.token = ${token} AND c.reply_to IS NULL ${keyset(page)}
            ${order(page)} LIMIT ${page.limit + 1}`),
        replies: (parentId, page) =>
          rows(sql`
            ${select(page.viewer)} WHERE c.reply_to = ${parentId} ${keyset(page)}
            ${order(page)} LIMIT ${page.limit + 1}`),
        commentCount: (token) =>
          sql<{ n: number }>`SELECT comment_count AS n FROM comment_threads WHERE token = ${token}`.pipe(
            Effect.map((r) => r[0]?.n ?? 0),
            Effect.orDie
          ),
        latest: (tokens, limit, viewer) =>
          tokens.length === 0
            ? Effect.succeed([])
            : rows(sql`
            SELECT x.* FROM comment_threads t
            CROSS JOIN LATERAL (
              ${select(viewer)} WHERE c.token = t.token AND c.deleted_at IS NULL
              ORDER BY c.post_number DESC LIMIT ${limit}
            ) x
            WHERE t.token IN ${sql.in(tokens)}
            ORDER BY x.token, x.post_number DESC`),
        nextPostNumber: (token) =>
          // One statement: the first comment of a token creates the row, later ones update it; either way the row
          // stays locked until commit, so concurrent creates of one token take numbers one after the other.
          sql<{ n: number }>`
            INSERT INTO comment_threads (token, last_post_number, comment_count) VALUES (${token}, 1, 1)
            ON CONFLICT (token) DO UPDATE SET last_post_number = comment_threads.last_post_number + 1,
              comment_count = comment_threads.comment_count + 1
            RETURNING last_post_number AS n`.pipe(
            Effect.map((r) => r[0]!.n),
            Effect.orDie
          ),
        usersByUsername: (usernames) =>
          usernames.length === 0
            ? Effect.succeed([])
            : sql<{ id: string; username: string }>`
              SELECT id, username FROM users WHERE username IN ${sql.in(usernames)} AND hidden_at IS NULL`.pipe(
                Effect.orDie
              ),
        insert: (input) =>
          sql<{ id: string }>`
            INSERT INTO comments (token, post_number, author_id, reply_to, text, image, mentions)
            VALUES (${input.token}, ${input.postNumber}, ${input.authorId}, ${input.replyTo}, ${input.text}, ${input.image},
              ${JSON.stringify(input.mentions)}::jsonb)
            RETURNING id::text AS id`.pipe(
            Effect.map((r) => Number(r[0]!.id)),
            Effect.orDie
          ),
        countReply: (parentId) =>
          sql`UPDATE comments SET reply_count = reply_count + 1 WHERE id = ${parentId}`.pipe(
            Effect.asVoid,
            Effect.orDie
          )
      })
    })
  )
}
