import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AdminAuthentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest, Conflict, NotFound } from "../../../platform/ApiError.ts"
import { MintAddress } from "../Listing.ts"
import { HidePayload, ReportId, ReportPage, ResolvePayload, TokenReport, TokenVisibility } from "./Report.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const admin = "Admin only (403 FORBIDDEN otherwise)."

/** Moderation of token listings (spec: Admin = JWT of a user with isAdmin). */
export class TokenAdminApi extends HttpApiGroup.make("tokenAdmin")
  .add(
    HttpApiEndpoint.post("hideToken", "/v1/tokens/admin/:mintAddress/hide", {
      params: { mintAddress: MintAddress },
      payload: HidePayload,
      success: TokenVisibility,
      error: [BadRequest, NotFound]
    })
      .middleware(AdminAuthentication)
      .annotateMerge(
        doc(
          "Delete (hide) a token listing",
          `${admin} The token disappears from listings (\`token_listings\`), its GET routes answer 410 TOKEN_DELETED, and ` +
            "claims and launch submits of it fail with TOKEN_DELETED. The chain data stays indexed. Audited. Idempotent " +
            "(`changed: false`). 404 TOKEN_NOT_FOUND (not an indexed launch)."
        )
      ),
    HttpApiEndpoint.post("unhideToken", "/v1/tokens/admin/:mintAddress/unhide", {
      params: { mintAddress: MintAddress },
      payload: HidePayload,
      success: TokenVisibility,
      error: [BadRequest, NotFound]
    })
      .middleware(AdminAuthentication)
      .annotateMerge(doc("Restore a hidden token listing", `${admin} Audited; idempotent.`)),
    HttpApiEndpoint.get("listTokenReports", "/v1/tokens/admin/reports", {
      query: {
        status: Schema.optional(Schema.Literals(["open", "resolved", "all"])).annotate({ description: "Default open" }),
        limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))).annotate({
          description: "1–100 (default 50)"
        }),
        cursor: Schema.optional(ReportId).annotate({ description: "`nextCursor` of the previous page" })
      },
      success: ReportPage,
      error: BadRequest
    })
      .middleware(AdminAuthentication)
      .annotateMerge(doc("Token reports", `${admin} Oldest first.`)),
    HttpApiEndpoint.post("resolveTokenReport", "/v1/tokens/admin/reports/:reportId/resolve", {
      params: { reportId: ReportId },
      payload: ResolvePayload,
      success: TokenReport,
      error: [BadRequest, NotFound, Conflict]
    })
      .middleware(AdminAuthentication)
      .annotateMerge(
        doc(
          "Resolve a report",
          `${admin} \`dismissed\`, or \`hidden\`: hides the token and resolves all its open reports, in one transaction. ` +
            "404 REPORT_NOT_FOUND; 409 REPORT_ALREADY_RESOLVED."
        )
      )
  )
  .annotateMerge(
    OpenApi.annotations({ title: "Token moderation", description: "Admin: hide listings, review reports" })
  ) {}
