import { Cause, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../AppConfig.ts"
import { ServiceUnavailable } from "../ApiError.ts"
import { HealthReport, Liveness, Readiness } from "./SystemApi.ts"

const startedAt = Date.now()
export const version = "0.1.0"

/** Probes the process's dependencies for the health routes. */
export class Health extends Context.Service<
  Health,
  {
    /** Liveness with the database's state as information: never fails. */
    readonly report: (service: string) => Effect.Effect<HealthReport>
    /** The load balancer's question: can this node serve? (the database answers) */
    readonly ready: (service: string) => Effect.Effect<Readiness, ServiceUnavailable>
  }
>()("app/system/Health") {
  static readonly layer = Layer.effect(
    Health,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { healthProbeTtlMs } = yield* AppConfig
      const probeDatabase = Effect.gen(function* () {
        const t0 = performance.now()
        // Once more on failure: after a database restart or failover the pool may still hold a dead connection, which
        // the failed query discards; the second try gets a fresh one (a real outage fails both).
        yield* sql`SELECT 1`.pipe(Effect.retry({ times: 1 }))
        return { status: "up" as const, latencyMs: Math.round((performance.now() - t0) * 100) / 100 }
      }).pipe(
        Effect.timeout("2 seconds"),
        Effect.catchCause((cause) => {
          const error = Cause.squash(cause)
          return Effect.succeed({
            status: "down" as const,
            error: (error instanceof Error ? error.message : String(error)).slice(0, 200)
          })
        })
      )
      const probe = healthProbeTtlMs > 0 ? yield* Effect.cachedWithTTL(probeDatabase, healthProbeTtlMs) : probeDatabase
      const databaseUp = (service: string) =>
        Effect.gen(function* () {
          const database = yield* probe
          if (database.status === "down") {
            return yield* new ServiceUnavailable({
              code: "DATABASE_DOWN",
              message: "The database does not answer",
              details: { service, database }
            })
          }
          return database
        })
      return Health.of({
        ready: (service) =>
          Effect.map(databaseUp(service), (database) => new Readiness({ status: "ready", service, database })),
        report: (service: string) =>
          Effect.gen(function* () {
            const database = yield* probe
            return new HealthReport({
              status: database.status === "up" ? "ok" : "degraded",
              service,
              version,
              uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
              database
            })
          })
      })
    })
  )
}

/** The orchestrator's question: is the process alive? Nothing but the process itself is checked. */
export const liveness = (service: string) =>
  Effect.sync(
    () => new Liveness({ status: "alive", service, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) })
  )
