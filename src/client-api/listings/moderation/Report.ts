import { Schema } from "effect"
import { getAddress } from "viem"

/** Token reports: the reason list, the payloads and the views (users see their report; admins the queue). */

export const ReportReasons = ["scam", "impersonation", "offensive", "spam", "illegal", "other"] as const
export const ReportReason = Schema.Literals(ReportReasons).annotate({
  description: `One of: ${ReportReasons.join(", ")}`
})

export const ReportPayload = Schema.Struct({
  reason: ReportReason,
  details: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000))).annotate({
    description: "Free text, up to 1,000 characters"
  })
}).annotate({ identifier: "ReportToken" })

export const ReportId = Schema.String.check(Schema.isUUID()).annotate({ description: "Report id (UUID)" })

export const ResolvePayload = Schema.Struct({
  resolution: Schema.Literals(["dismissed", "hidden"]).annotate({
    description: "`dismissed`: no action. `hidden`: hide the token (as POST …/hide) and resolve every open report of it"
  }),
  note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
}).annotate({ identifier: "ResolveReport" })

export const HidePayload = Schema.Struct({
  reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))).annotate({
    description: "Kept in the audit log"
  })
}).annotate({ identifier: "HideToken" })

export const ReportRow = Schema.Struct({
  id: Schema.String,
  chainId: Schema.Int,
  tokenAddress: Schema.String,
  reporterId: Schema.String,
  reason: ReportReason,
  details: Schema.NullOr(Schema.String),
  resolution: Schema.NullOr(Schema.Literals(["dismissed", "hidden"])),
  resolutionNote: Schema.NullOr(Schema.String),
  resolvedBy: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date
})
export type ReportRow = typeof ReportRow.Type

export class TokenReport extends Schema.Class<TokenReport>("TokenReport")({
  id: ReportId,
  mintAddress: Schema.String,
  reporterId: Schema.String,
  reason: ReportReason,
  details: Schema.NullOr(Schema.String),
  status: Schema.Literals(["open", "resolved"]),
  resolution: Schema.NullOr(Schema.Literals(["dismissed", "hidden"])),
  resolutionNote: Schema.NullOr(Schema.String),
  resolvedBy: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}) {}

export class ReportPage extends Schema.Class<ReportPage>("ReportPage")({
  items: Schema.Array(TokenReport).annotate({ description: "Oldest first (a queue)" }),
  nextCursor: Schema.NullOr(Schema.String)
}) {}

export class TokenVisibility extends Schema.Class<TokenVisibility>("TokenVisibility")({
  mintAddress: Schema.String,
  hidden: Schema.Boolean,
  changed: Schema.Boolean.annotate({ description: "False when it already was in that state (nothing recorded)" })
}) {}

export const toTokenReport = (r: ReportRow) =>
  new TokenReport({
    id: r.id,
    mintAddress: getAddress(r.tokenAddress),
    reporterId: r.reporterId,
    reason: r.reason,
    details: r.details,
    status: r.resolvedAt === null ? "open" : "resolved",
    resolution: r.resolution,
    resolutionNote: r.resolutionNote,
    resolvedBy: r.resolvedBy,
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString()
  })
