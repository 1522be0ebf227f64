import { Effect, Schedule } from "effect"
import type { SqlClient } from "effect/sql"
import { Notifications } from "../../src/client-api/notifications/Notifications.ts"
import { bearer, client } from "../support/http.ts"

/** Helpers shared by the push tests that run the client service (PushDelivery, PushSsrf). */

export const userIdOf = (token: string) =>
  Effect.map(client("/v1/users/me", { headers: bearer(token) }), (res) => res.body.id as string)

/** Creates a notification the way every feature does: Notifications.notify on the app's database. */
export const notify = (userId: string, commentId: number) =>
  Effect.flatMap(Notifications, (n) =>
    n.notify(userId, "COMMENT_REPLY", {
      commentId,
      parentId: 1,
      token: "0x00000000000000000000000000000000000000aa",
      postNumber: 2,
      author: { userId, username: null },
      excerpt: "gm"
    })
  ).pipe(Effect.provide(Notifications.layer))

/** Polls the database until `check` holds (bounded), for effects of the worker that have no event of their own. */
export const eventually = <A>(query: Effect.Effect<A, unknown, SqlClient.SqlClient>, check: (a: A) => boolean) =>
  query.pipe(
    Effect.repeat({ until: check, schedule: Schedule.spaced("20 millis") }),
    Effect.timeout("20 seconds"),
    Effect.orDie
  )
