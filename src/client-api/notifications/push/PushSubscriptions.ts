import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { BadRequest } from "../../../platform/ApiError.ts"
import { MAX_SUBSCRIPTIONS_PER_USER } from "./PushLimits.ts"
import { PushConfig } from "./PushConfig.ts"
import { endpointHostProblem, endpointNotAllowed } from "./PushEndpointPolicy.ts"

export interface SubscriptionInput {
  readonly endpoint: string
  readonly expirationTime?: number | null | undefined
  readonly keys: { readonly p256dh: string; readonly auth: string }
}

/** The browser push subscriptions of users (push_subscriptions). */
export class PushSubscriptions extends Context.Service<
  PushSubscriptions,
  {
    /**
     * Stores (or moves to this user, or refreshes the keys of) the subscription of `endpoint`. Fails with 400
     * PUSH_ENDPOINT_NOT_ALLOWED for a localhost or private/reserved IP-literal host (unless PUSH_ALLOW_PRIVATE_HOSTS).
     */
    readonly subscribe: (userId: string, input: SubscriptionInput) => Effect.Effect<void, BadRequest>
    /** Removes the caller's subscription of `endpoint`; false when there was none. */
    readonly unsubscribe: (userId: string, endpoint: string) => Effect.Effect<boolean>
  }
>()("app/push/PushSubscriptions") {
  static readonly layer = Layer.effect(
    PushSubscriptions,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { allowPrivateHosts } = yield* PushConfig
      const checkHost = (endpoint: string) => {
        const problem = allowPrivateHosts ? undefined : endpointHostProblem(endpoint)
        return problem === undefined ? Effect.void : Effect.fail(endpointNotAllowed(problem))
      }
      return PushSubscriptions.of({
        subscribe: (userId, input) =>
          checkHost(input.endpoint).pipe(
            Effect.andThen(
              sql
                .withTransaction(
                  Effect.gen(function* () {
                    yield* sql`
              INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, expiration_time)
              VALUES (${userId}, ${input.endpoint}, ${input.keys.p256dh}, ${input.keys.auth}, ${input.expirationTime ?? null})
              ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
                auth = excluded.auth, expiration_time = excluded.expiration_time, created_at = now()`
                    yield* sql`
              DELETE FROM push_subscriptions WHERE id IN (
                SELECT id FROM push_subscriptions WHERE user_id = ${userId}
                ORDER BY created_at DESC, id DESC OFFSET ${MAX_SUBSCRIPTIONS_PER_USER})`
                  })
                )
                .pipe(Effect.orDie)
            ),
            Effect.withSpan("PushSubscriptions.subscribe")
          ),
        unsubscribe: (userId, endpoint) =>
          sql`DELETE FROM push_subscriptions WHERE user_id = ${userId} AND endpoint = ${endpoint} RETURNING id`.pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie,
            Effect.withSpan("PushSubscriptions.unsubscribe")
          )
      })
    })
  )
}
