import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest, Conflict, Gone, NotFound } from "../../../platform/ApiError.ts"
import { MintAddress } from "../Listing.ts"
import { ReportPayload, TokenReport } from "../moderation/Report.ts"
import { BatchImages, BuyerChart, BuyerPage, FuelPage, MAX_BATCH_IMAGES, TokenDetail, TokenPosition } from "./Token.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const params = { mintAddress: MintAddress }
const missing =
  "404 TOKEN_NOT_FOUND (not a canonical launched token, or not indexed yet); 410 TOKEN_DELETED (removed " +
  "by an admin); 400 INVALID_PATH (malformed address)"
const page = {
  limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))).annotate({
    description: "Page size, 1–100 (default 20)"
  }),
  cursor: Schema.optional(Schema.String.check(Schema.isMaxLength(500))).annotate({
    description: "`nextCursor` of the previous page"
  })
}

/** Token listings over indexed data: detail, holders, buyer chart, fuel history, the caller's position, icons, reports. */
export class TokensApi extends HttpApiGroup.make("tokens")
  .add(
    HttpApiEndpoint.post("getTokenImages", "/v1/tokens/batch/images", {
      payload: Schema.Struct({
        addresses: Schema.Array(MintAddress).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_BATCH_IMAGES))
      }).annotate({ identifier: "BatchImagesRequest" }),
      success: BatchImages,
      error: BadRequest
    }).annotateMerge(
      doc(
        "Token icons, batched",
        `Up to ${MAX_BATCH_IMAGES} addresses per request (1–${MAX_BATCH_IMAGES}, else 400 INVALID_BODY). Every address is ` +
          "answered; null = no image (unclaimed, no upload, unknown or removed token)."
      )
    ),
    HttpApiEndpoint.get("getToken", "/v1/tokens/:mintAddress", {
      params,
      success: TokenDetail,
      error: [BadRequest, NotFound, Gone]
    }).annotateMerge(
      doc(
        "Token detail",
        "Indexed token data (supply, holders, pool price and liquidity, 24 h volume, fuel, graduation state) with the " +
          `listing: claimed flag, the creator's public profile once claimed, the metadata record. ${missing}.`
      )
    ),
    HttpApiEndpoint.get("getTokenBuyers", "/v1/tokens/:mintAddress/buyers", {
      params,
      query: page,
      success: BuyerPage,
      error: [BadRequest, NotFound, Gone]
    }).annotateMerge(
      doc(
        "Holder leaderboard",
        "Holders by balance, largest first, with their user when the wallet belongs to one. The launch pool (it holds the " +
          `unsold supply) and FireLaunch are left out. Keyset pages (\`limit\`, \`cursor\`). ${missing}; 400 INVALID_CURSOR.`
      )
    ),
    HttpApiEndpoint.get("getTokenBuyerChart", "/v1/tokens/:mintAddress/buyers/chart", {
      params,
      query: {
        bucket: Schema.optional(Schema.Literals(["1h", "1d"])).annotate({ description: "Bucket size (default 1h)" }),
        limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))).annotate({
          description: "Most recent buckets to return, 1–1000 (default 168)"
        })
      },
      success: BuyerChart,
      error: [BadRequest, NotFound, Gone]
    }).annotateMerge(
      doc(
        "Buyer distribution over time",
        "Buys in the launch pool (swaps paying the token out) per UTC-aligned bucket: buys, distinct buyers, first-time " +
          `buyers and the running total of distinct buyers. Buckets without buys are omitted. ${missing}.`
      )
    ),
    HttpApiEndpoint.get("getTokenFuels", "/v1/tokens/:mintAddress/fuels", {
      params,
      query: page,
      success: FuelPage,
      error: [BadRequest, NotFound, Gone]
    }).annotateMerge(
      doc(
        "Fuel (tip) history",
        `FuelVault gifts to the creator and the creator's withdrawals, newest first, keyset pages. ${missing}; 400 INVALID_CURSOR.`
      )
    ),
    HttpApiEndpoint.get("getTokenPosition", "/v1/tokens/:mintAddress/position", {
      params,
      success: TokenPosition,
      error: [BadRequest, NotFound, Gone]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "My position in the token",
          "The caller's wallet: indexed balance, and from its swaps in the launch pool (swaps whose recipient is the " +
            "wallet) the amounts bought and sold, the WETH cost basis of what is still held (average cost), realized PnL, " +
            "and the current value at the pool price (wei) and USD price. Tokens received by transfer count in the balance " +
            `at zero cost. 400 WALLET_REQUIRED (account without a wallet); ${missing}.`
        )
      ),
    HttpApiEndpoint.post("reportToken", "/v1/tokens/:mintAddress/report", {
      params,
      payload: ReportPayload,
      success: TokenReport.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, NotFound, Gone, Conflict]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Report a token",
          "For the administrators' queue. One open report per user per token (a database constraint, also under " +
            `concurrent requests): 409 REPORT_ALREADY_OPEN (details.reportId); once resolved, the user may report again. ${missing}.`
        )
      )
  )
  .annotateMerge(OpenApi.annotations({ title: "Tokens", description: "Token listings over indexed chain data" })) {}
