import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest } from "../../../platform/ApiError.ts"
import { LinkedAccount, StoreTokensRequest } from "./LinkedAccount.ts"

/** A linked third-party social account (X). */
export class XAuthApi extends HttpApiGroup.make("xAuth")
  .add(
    HttpApiEndpoint.post("storeXAuthTokens", "/v1/x-auth/store-tokens", {
      payload: StoreTokensRequest,
      success: LinkedAccount,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Store the OAuth tokens of my linked X account",
          description:
            "Replaces the caller's stored tokens for the provider. Tokens are encrypted at rest with AES-256-GCM (random " +
            "IV per value; user and provider bound as additional data); the key comes from X_AUTH_ENCRYPTION_KEY or is " +
            "generated once into $DATA_DIR/secrets and is never stored in the database. No route ever returns a token: " +
            "the answer says what is linked. 400 INVALID_BODY."
        })
      )
  )
  .annotateMerge(
    OpenApi.annotations({ title: "Linked accounts", description: "OAuth tokens of a linked social account" })
  ) {}
