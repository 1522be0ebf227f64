import { Cause, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../Config.ts"
import { ServiceUnavailable } from "../domain/ApiError.ts"
import { HealthReport } from "./SystemApi.ts"

const startedAt = Date.now()
export const version = "0.1.0"

/** Probes the process's dependencies for the health routes. */
export class Health extends Context.Service<Health, {
  readonly report: (service: string) => Effect.Effect<HealthReport, ServiceUnavailable>
}>()("app/system/Health") {
  static readonly layer = Layer.effect(
    Health,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { healthProbeTtlMs } = yield* AppConfig
      const probeDatabase = Effect.gen(function*() {
        const t0 = performance.now()
        yield* sql`SELECT 1`
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
      return Health.of({
        report: (service: string) => Effect.gen(function*() {
          const database = yield* probe
          if (database.status === "down") {
            return yield* new ServiceUnavailable({
              code: "DATABASE_DOWN",
              message: "The database does not answer",
              details: { service, database }
            })
          }
          return new HealthReport({
            status: "ok",
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
