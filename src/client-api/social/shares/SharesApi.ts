import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest, Gone, NotFound } from "../../../platform/ApiError.ts"
import { WalletAddress } from "../../accounts/users/User.ts"
import { ShareCode, ShareLink } from "./ShareLink.ts"

export const CreateShareRequest = Schema.Struct({
  mintAddress: WalletAddress.annotate({ description: "The launched token to share" })
}).annotate({ identifier: "CreateShareRequest" })

/** Short share links for tokens, with a counted redirect. */
export class SharesApi extends HttpApiGroup.make("shares")
  .add(
    HttpApiEndpoint.post("createShare", "/v1/shares", {
      payload: CreateShareRequest,
      success: ShareLink.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, NotFound, Gone]
    })
      .middleware(Authentication)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Create a share link for a token",
          description:
            "One link per user and token: asking again returns the same code and its visit count. " +
            "404 TOKEN_NOT_FOUND when the address is not an indexed launched token; 410 TOKEN_DELETED when an admin hid it; 400 INVALID_BODY."
        })
      ),
    HttpApiEndpoint.get("followShare", "/v1/shares/:code", {
      params: { code: ShareCode },
      success: HttpApiSchema.Empty(302),
      error: [BadRequest, NotFound]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Follow a share link",
        description:
          "302 to SHARE_REDIRECT_TEMPLATE with the token's address (default `/tokens/{mintAddress}`), counting " +
          "the visit (one atomic increment per request). 404 SHARE_NOT_FOUND."
      })
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Shares", description: "Share links" })) {}
