import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authentication } from "../accounts/auth/Authentication.ts"
import { BadRequest, NotFound } from "../../platform/ApiError.ts"
import { NotificationKinds, NotificationView } from "./Notification.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

export const NOTIFICATION_PAGE = { default: 20, max: 100 } as const

export class NotificationPage extends Schema.Class<NotificationPage>("NotificationPage")({
  items: Schema.Array(NotificationView).annotate({ description: "Newest first" }),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null at the end"
  })
}) {}

export class UnreadCount extends Schema.Class<UnreadCount>("UnreadCount")({
  unread: Schema.Int.annotate({ description: "Unread notifications of the caller" })
}) {}

export class MarkedRead extends Schema.Class<MarkedRead>("MarkedRead")({
  marked: Schema.Int.annotate({ description: "How many notifications this call marked read" })
}) {}

/** In-app notifications of the signed-in user. */
export class NotificationsApi extends HttpApiGroup.make("notifications")
  .add(
    HttpApiEndpoint.get("listNotifications", "/v1/notifications", {
      query: {
        unread: Schema.optional(Schema.Literals(["true", "false"])).annotate({ description: "`true`: unread only" }),
        limit: Schema.optional(
          Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: NOTIFICATION_PAGE.max }))
        ).annotate({
          description: `Page size, 1–${NOTIFICATION_PAGE.max} (default ${NOTIFICATION_PAGE.default})`
        }),
        cursor: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))).annotate({
          description: "From `nextCursor`"
        })
      },
      success: NotificationPage,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "My notifications",
          "Newest first, keyset-paginated by id (stable while new ones arrive). Kinds: " +
            `${NotificationKinds.join(", ")}; each kind's payload is in the Notification schema. The same JSON is the ` +
            "body of the web push message."
        )
      ),
    HttpApiEndpoint.get("unreadCount", "/v1/notifications/unread-count", { success: UnreadCount })
      .middleware(Authentication)
      .annotateMerge(doc("My unread count", "Kept on a row, updated in the same transaction as each notification.")),
    HttpApiEndpoint.post("markRead", "/v1/notifications/:id/read", {
      params: { id: Schema.Int },
      success: NotificationView,
      error: [BadRequest, NotFound]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Mark one read",
          "Idempotent: an already-read notification is returned as it is. 404 NOTIFICATION_NOT_FOUND (unknown or not yours)."
        )
      ),
    HttpApiEndpoint.post("markAllRead", "/v1/notifications/read-all", { success: MarkedRead })
      .middleware(Authentication)
      .annotateMerge(doc("Mark all read", "Marks every unread notification of the caller read."))
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Notifications",
      description: "Replies, mentions, likes, fuel received, launches completed, tokens graduated, claims succeeded"
    })
  ) {}
