import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser } from "../accounts/auth/Authentication.ts"
import { ClientApi } from "../ClientApi.ts"
import { Notifications } from "./Notifications.ts"
import { MarkedRead, NOTIFICATION_PAGE, NotificationPage, UnreadCount } from "./NotificationsApi.ts"

export const NotificationsHttp = HttpApiBuilder.group(
  ClientApi,
  "notifications",
  Effect.fn(function* (handlers) {
    const notifications = yield* Notifications
    return handlers
      .handle("listNotifications", ({ query }) =>
        Effect.flatMap(CurrentUser, (user) =>
          notifications.list(user.id, {
            unread: query.unread === "true",
            limit: query.limit ?? NOTIFICATION_PAGE.default,
            cursor: query.cursor
          })
        ).pipe(Effect.map((page) => new NotificationPage(page)))
      )
      .handle("unreadCount", () =>
        Effect.flatMap(CurrentUser, (user) => notifications.unreadCount(user.id)).pipe(
          Effect.map((unread) => new UnreadCount({ unread }))
        )
      )
      .handle("markRead", ({ params }) =>
        Effect.flatMap(CurrentUser, (user) => notifications.markRead(user.id, params.id))
      )
      .handle("markAllRead", () =>
        Effect.flatMap(CurrentUser, (user) => notifications.markAllRead(user.id)).pipe(
          Effect.map((marked) => new MarkedRead({ marked }))
        )
      )
  })
)
