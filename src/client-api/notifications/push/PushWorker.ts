import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Queue } from "effect"
import { SqlClient } from "effect/sql"
import { type NotificationKind, urgencyOf } from "../Notification.ts"
import { PUSH_CHANNEL, toView } from "../Notifications.ts"
import { recordPushDelivery } from "../../../platform/metrics/Metrics.ts"
import { backoffMs, PushConfig } from "./PushConfig.ts"
import { type PushOutcome, PushSender } from "./PushSender.ts"

/** Jobs leased per round; a lease lasts long enough for a round of timed-out requests. */
const BATCH = 64

interface LeasedJob {
  readonly id: string
  readonly attempts: number
  readonly subscriptionId: string
  readonly endpoint: string
  readonly p256dh: string
  readonly auth: string
  readonly notificationId: string
  readonly kind: string
  readonly payload: unknown
  readonly createdAt: Date
  readonly readAt: Date | null
}

/**
 * Works the push queue (push_jobs): leases due jobs with FOR UPDATE SKIP LOCKED (several processes share the queue,
 * none sends a job another holds), sends them outside any transaction, then settles each: delivered → job deleted;
 * 404/410, or an endpoint host that is/resolves to a blocked address (Refused, nothing sent) → subscription deleted
 * (its jobs go with it); 5xx/429/network → retried after exponential backoff, dropped after PUSH_MAX_ATTEMPTS;
 * other 4xx → dropped. A job leased by a process that died is free again when its lease ends. The fiber wakes on
 * NOTIFY push_jobs (sent by the transaction that created the notification) and every PUSH_POLL_MS for retries.
 */
export class PushWorker extends Context.Service<
  PushWorker,
  {
    /** Sends every job that is due now; returns how many were attempted. */
    readonly drain: Effect.Effect<number>
  }
>()("app/push/PushWorker") {
  static readonly layerPassive = Layer.effect(
    PushWorker,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const config = yield* PushConfig
      const sender = yield* PushSender
      const leaseSeconds = Math.ceil(config.requestTimeoutMs / 1000) * 3 + 30

      const lease = sql<LeasedJob>`
        WITH leased AS (
          UPDATE push_jobs SET locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM push_jobs
            WHERE next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
            ORDER BY next_attempt_at
            LIMIT ${BATCH}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, attempts, subscription_id, notification_id)
        SELECT l.id, l.attempts, s.id AS subscription_id, s.endpoint, s.p256dh, s.auth,
               n.id AS notification_id, n.kind, n.payload, n.created_at, n.read_at
        FROM leased l
        JOIN push_subscriptions s ON s.id = l.subscription_id
        JOIN notifications n ON n.id = l.notification_id`

      const settledLabel = { Delivered: "delivered", Gone: "gone", Refused: "refused", Rejected: "rejected" } as const
      const settle = (job: LeasedJob, outcome: PushOutcome) =>
        Effect.andThen(count(job, outcome), settleJob(job, outcome))
      const count = (job: LeasedJob, outcome: PushOutcome) =>
        recordPushDelivery(
          outcome._tag === "Retry"
            ? job.attempts >= config.maxAttempts
              ? "dropped"
              : "retry"
            : settledLabel[outcome._tag]
        )
      // The subscription goes, and its jobs with it.
      const removeSubscription = (job: LeasedJob, log: Effect.Effect<void>) =>
        sql`DELETE FROM push_subscriptions WHERE id = ${job.subscriptionId}`.pipe(Effect.andThen(log))
      const settleJob = (job: LeasedJob, outcome: PushOutcome) => {
        switch (outcome._tag) {
          case "Delivered":
            return sql`DELETE FROM push_jobs WHERE id = ${job.id}`
          case "Gone":
            return removeSubscription(
              job,
              Effect.logInfo(`push: subscription ${job.subscriptionId} removed (${outcome.status})`)
            )
          case "Refused":
            return removeSubscription(
              job,
              Effect.logWarning(`push: subscription ${job.subscriptionId} removed: ${outcome.error}`)
            )
          case "Rejected":
            return sql`DELETE FROM push_jobs WHERE id = ${job.id}`.pipe(
              Effect.andThen(Effect.logWarning(`push: job ${job.id} dropped: ${outcome.error}`))
            )
          case "Retry":
            return job.attempts >= config.maxAttempts
              ? sql`DELETE FROM push_jobs WHERE id = ${job.id}`.pipe(
                  Effect.andThen(
                    Effect.logWarning(`push: job ${job.id} dropped after ${job.attempts} attempts: ${outcome.error}`)
                  )
                )
              : sql`
                UPDATE push_jobs SET locked_until = NULL, last_error = ${outcome.error},
                  next_attempt_at = now() + make_interval(secs => ${backoffMs(config, job.attempts) / 1000})
                WHERE id = ${job.id}`
        }
      }

      const deliver = (job: LeasedJob) => {
        const notification = toView({
          id: job.notificationId,
          kind: job.kind,
          payload: job.payload,
          createdAt: job.createdAt,
          readAt: job.readAt
        })
        return sender
          .send(
            { endpoint: job.endpoint, keys: { p256dh: job.p256dh, auth: job.auth } },
            JSON.stringify(notification),
            { urgency: urgencyOf(job.kind as NotificationKind) }
          )
          .pipe(Effect.flatMap((outcome) => settle(job, outcome)))
      }

      const round = Effect.flatMap(lease, (jobs) =>
        Effect.as(Effect.forEach(jobs, deliver, { concurrency: config.concurrency, discard: true }), jobs.length)
      )

      const drain: Effect.Effect<number> = Effect.gen(function* () {
        let total = 0
        for (;;) {
          const n = yield* round
          total += n
          if (n < BATCH) return total
        }
      }).pipe(Effect.orDie, Effect.withSpan("PushWorker.drain"))

      return PushWorker.of({ drain })
    })
  )

  /** The worker fiber, for the life of the layer. */
  static readonly layer = Layer.effectDiscard(
    Effect.gen(function* () {
      const worker = yield* PushWorker
      const config = yield* PushConfig
      const pg = yield* PgClient.PgClient
      const wakeups = yield* pg.listen(PUSH_CHANNEL).pipe(Effect.orDie)
      // A failed listener only fails its side of the race: the poll still wakes the worker.
      const wait = Effect.race(Queue.take(wakeups), Effect.sleep(config.pollMs)).pipe(Effect.ignore)
      const loop = worker.drain.pipe(
        Effect.catchCause((cause) => Effect.logError("push: worker round failed", cause)),
        Effect.andThen(wait),
        Effect.forever
      )
      yield* Effect.forkScoped(loop)
    })
  ).pipe(Layer.provideMerge(PushWorker.layerPassive))
}
