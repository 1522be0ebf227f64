import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { type BadRequest, Conflict, type Gone, NotFound } from "../../../platform/ApiError.ts"
import { LaunchpadReader } from "../LaunchpadReader.ts"
import { dbAddress, tokenNotFound } from "../Listing.ts"
import { ListingsRepo } from "../ListingsRepo.ts"
import { Tokens } from "../tokens/Tokens.ts"
import { TokensRepo } from "../tokens/TokensRepo.ts"
import type { User } from "../../accounts/users/User.ts"
import type { ReportRow } from "./Report.ts"
import { ReportsRepo } from "./ReportsRepo.ts"

const reportNotFound = (id: string) => new NotFound({ code: "REPORT_NOT_FOUND", message: `No report ${id}` })

/** Reports by users and the admin side: hide/unhide a listing, the report queue, resolutions. */
export class TokenModeration extends Context.Service<
  TokenModeration,
  {
    readonly report: (
      user: User,
      mint: string,
      reason: string,
      details: string | null
    ) => Effect.Effect<ReportRow, NotFound | Gone | Conflict>
    readonly setHidden: (
      admin: User,
      mint: string,
      hidden: boolean,
      reason: string | null
    ) => Effect.Effect<boolean, NotFound>
    readonly list: (
      status: "open" | "resolved" | "all",
      limit: number,
      cursor: string | undefined
    ) => Effect.Effect<{ readonly items: ReadonlyArray<ReportRow>; readonly nextCursor: string | null }, BadRequest>
    readonly resolve: (
      admin: User,
      id: string,
      resolution: "dismissed" | "hidden",
      note: string | null
    ) => Effect.Effect<ReportRow, NotFound | Conflict>
  }
>()("app/moderation/TokenModeration") {
  static readonly layer = Layer.effect(
    TokenModeration,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const reports = yield* ReportsRepo
      const listings = yield* ListingsRepo
      const tokens = yield* Tokens
      const tokenRows = yield* TokensRepo
      const { chainId } = yield* LaunchpadReader

      const report = Effect.fn("TokenModeration.report")(function* (
        user: User,
        mint: string,
        reason: string,
        details: string | null
      ) {
        const token = yield* tokens.visible(mint)
        return yield* reports
          .insert({ chainId: token.chainId, tokenAddress: token.address, reporterId: user.id, reason, details })
          .pipe(
            Effect.catchTag("OpenReportExists", () =>
              Effect.flatMap(reports.findOpen(token.chainId, token.address, user.id), (open) =>
                Effect.fail(
                  new Conflict({
                    code: "REPORT_ALREADY_OPEN",
                    message: "You already reported this token; an administrator has not resolved it yet",
                    details: Option.match(open, { onNone: () => ({}), onSome: (r) => ({ reportId: r.id }) })
                  })
                )
              )
            )
          )
      })

      const setHidden = Effect.fn("TokenModeration.setHidden")(function* (
        admin: User,
        mint: string,
        hidden: boolean,
        reason: string | null
      ) {
        // Admins act on any indexed launch, hidden or not (unlike `Tokens.visible`).
        const token = yield* tokenRows.find(chainId, dbAddress(mint))
        if (Option.isNone(token)) return yield* tokenNotFound(getAddress(mint))
        return yield* listings.setHidden({ chainId, token: token.value.address, adminId: admin.id, hidden, reason })
      })

      const list = Effect.fn("TokenModeration.list")(function* (
        status: "open" | "resolved" | "all",
        limit: number,
        cursor: string | undefined
      ) {
        const rows = yield* reports.list({ status, after: cursor, limit: limit + 1 })
        const shown = rows.slice(0, limit)
        return { items: shown, nextCursor: rows.length > limit ? shown.at(-1)!.id : null }
      })

      const resolve = Effect.fn("TokenModeration.resolve")(function* (
        admin: User,
        id: string,
        resolution: "dismissed" | "hidden",
        note: string | null
      ) {
        const existing = yield* Effect.flatMap(
          reports.find(id),
          Option.match({ onNone: () => Effect.fail(reportNotFound(id)), onSome: Effect.succeed })
        )
        if (existing.resolvedAt !== null) {
          return yield* new Conflict({
            code: "REPORT_ALREADY_RESOLVED",
            message: `Report ${id} was already resolved`,
            details: { resolution: existing.resolution }
          })
        }
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              if (resolution === "hidden") {
                yield* listings.setHidden({
                  chainId: existing.chainId,
                  token: existing.tokenAddress,
                  adminId: admin.id,
                  hidden: true,
                  reason: note ?? `report ${id}`
                })
              }
              const resolved = yield* reports.resolve({
                id,
                adminId: admin.id,
                resolution,
                note,
                allOfToken: resolution === "hidden"
              })
              if (Option.isNone(resolved)) {
                return yield* new Conflict({
                  code: "REPORT_ALREADY_RESOLVED",
                  message: `Report ${id} was already resolved`
                })
              }
              return resolved.value
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
      })

      return TokenModeration.of({ report, setHidden, list, resolve })
    })
  )
}
