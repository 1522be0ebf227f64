import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound } from "../../platform/ApiError.ts"
import type { NotificationKind, NotificationView, PayloadOf } from "./Notification.ts"

/** The channel a committed notification wakes the push workers on (NOTIFY is delivered at commit). */
export const PUSH_CHANNEL = "push_jobs"

export interface NotifyOptions {
  /**
   * Makes the event notify at most once: a second notify with the same key does nothing (returns false). Use it for
   * anything that can be seen twice: chain events, toggles, edits.
   */
  readonly dedupeKey?: string
}

export interface NotificationPage {
  readonly items: ReadonlyArray<NotificationView>
  readonly nextCursor: string | null
}

interface Row {
  readonly id: string | number
  readonly kind: string
  readonly payload: unknown
  readonly createdAt: Date
  readonly readAt: Date | null
}

export const toView = (row: Row): NotificationView =>
  ({
    id: Number(row.id),
    kind: row.kind,
    payload: row.payload,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt === null ? null : row.readAt.toISOString()
  }) as NotificationView

/**
 * The single entry point for every notification kind. `notify` joins the caller's transaction when there is one
 * (the SqlClient follows the fiber's transaction), so a notification exists exactly when the change that caused it
 * was committed; it also enqueues one push job per subscription of the recipient in that transaction, and the push
 * worker (src/client-api/notifications/push/PushWorker.ts) delivers them after the commit, never inside the request.
 */
export class Notifications extends Context.Service<
  Notifications,
  {
    readonly notify: <K extends NotificationKind>(
      userId: string,
      kind: K,
      payload: PayloadOf<K>,
      options?: NotifyOptions
    ) => Effect.Effect<boolean>
    readonly list: (
      userId: string,
      query: { readonly unread: boolean; readonly limit: number; readonly cursor: number | undefined }
    ) => Effect.Effect<NotificationPage>
    readonly unreadCount: (userId: string) => Effect.Effect<number>
    readonly markRead: (userId: string, id: number) => Effect.Effect<NotificationView, NotFound>
    readonly markAllRead: (userId: string) => Effect.Effect<number>
  }
>()("app/notifications/Notifications") {
  static readonly layer = Layer.effect(
    Notifications,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const notify = <K extends NotificationKind>(
        userId: string,
        kind: K,
        payload: PayloadOf<K>,
        options: NotifyOptions = {}
      ) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const inserted = yield* sql<{ id: string }>`
            INSERT INTO notifications (user_id, kind, payload, dedupe_key)
            VALUES (${userId}, ${kind}, ${JSON.stringify(payload)}::jsonb, ${options.dedupeKey ?? null})
            ON CONFLICT (dedupe_key) DO NOTHING
            RETURNING id`
              const id = inserted[0]?.id
              if (id === undefined) return false
              yield* sql`
            INSERT INTO notification_counters (user_id, unread) VALUES (${userId}, 1)
            ON CONFLICT (user_id) DO UPDATE SET unread = notification_counters.unread + 1`
              const jobs = yield* sql`
            INSERT INTO push_jobs (notification_id, subscription_id)
            SELECT ${id}, id FROM push_subscriptions WHERE user_id = ${userId}
            RETURNING id`
              if (jobs.length > 0) yield* sql`SELECT pg_notify(${PUSH_CHANNEL}, '')`
              return true
            })
          )
          .pipe(Effect.withSpan("Notifications.notify", { attributes: { kind } }), Effect.orDie)

      const list = Effect.fn("Notifications.list")(function* (
        userId: string,
        query: { readonly unread: boolean; readonly limit: number; readonly cursor: number | undefined }
      ) {
        const rows = yield* sql<Row>`
          SELECT id, kind, payload, created_at, read_at FROM notifications
          WHERE user_id = ${userId}
            ${query.unread ? sql`AND read_at IS NULL` : sql``}
            ${query.cursor === undefined ? sql`` : sql`AND id < ${query.cursor}`}
          ORDER BY id DESC
          LIMIT ${query.limit + 1}`.pipe(Effect.orDie)
        const items = rows.slice(0, query.limit).map(toView)
        return {
          items,
          nextCursor: rows.length > query.limit ? String(items[items.length - 1]!.id) : null
        }
      })

      const unreadCount = (userId: string) =>
        sql<{ unread: number }>`SELECT unread FROM notification_counters WHERE user_id = ${userId}`.pipe(
          Effect.map((rows) => rows[0]?.unread ?? 0),
          Effect.orDie
        )

      const markRead = (userId: string, id: number) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const changed = yield* sql<Row>`
            UPDATE notifications SET read_at = now() WHERE id = ${id} AND user_id = ${userId} AND read_at IS NULL
            RETURNING id, kind, payload, created_at, read_at`
              if (changed.length > 0) {
                yield* sql`UPDATE notification_counters SET unread = unread - 1 WHERE user_id = ${userId}`
                return changed[0]
              }
              const existing = yield* sql<Row>`
            SELECT id, kind, payload, created_at, read_at FROM notifications WHERE id = ${id} AND user_id = ${userId}`
              return existing[0]
            })
          )
          .pipe(
            Effect.orDie,
            Effect.flatMap((row) =>
              row === undefined
                ? Effect.fail(
                    new NotFound({ code: "NOTIFICATION_NOT_FOUND", message: `No notification ${id} of yours` })
                  )
                : Effect.succeed(toView(row))
            ),
            Effect.withSpan("Notifications.markRead")
          )

      const markAllRead = (userId: string) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const changed = yield* sql`
            UPDATE notifications SET read_at = now() WHERE user_id = ${userId} AND read_at IS NULL RETURNING id`
              if (changed.length > 0) {
                yield* sql`UPDATE notification_counters SET unread = unread - ${changed.length} WHERE user_id = ${userId}`
              }
              return changed.length
            })
          )
          .pipe(Effect.orDie, Effect.withSpan("Notifications.markAllRead"))

      return Notifications.of({ notify, list, unreadCount, markRead, markAllRead })
    })
  )
}
