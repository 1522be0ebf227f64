import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authentication } from "../../accounts/auth/Authentication.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests
} from "../../../platform/ApiError.ts"
import { ImageUploadLimits } from "../../accounts/images/ImageUploadLimits.ts"
import { MintAddress } from "../Listing.ts"
import { ListingRecord } from "../ListingRecord.ts"
import { ClaimPayload, ClaimTypedDataView, TypedDataQuery } from "./Claim.ts"
import { CLAIM_MAX_AGE_SECONDS, CLAIM_MAX_SKEW_SECONDS } from "./ClaimTypedData.ts"
import { ImageRequired } from "./ImageRequired.ts"
import { LaunchpadDeployed } from "../LaunchpadDeployed.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const params = { mintAddress: MintAddress }

const typedDataDoc =
  'EIP-712 typed data: domain `{name: "Fire", version: "1", chainId, verifyingContract: FireLaunch}`, ' +
  "primary type `Claim(address token,address wallet,string userId,uint256 signedAt)`: `token` the mint address, " +
  "`wallet` the signer (must be the on-chain creator, `FireLaunch.creatorOf(token)`), `userId` the signed-in user's " +
  "id (binds the signature to this account), `signedAt` unix seconds."

/** Creator claims of token listings (EIP-712) and the claim image. */
export class ClaimsApi extends HttpApiGroup.make("claims")
  .add(
    HttpApiEndpoint.get("getClaimTypedData", "/v1/tokens/:mintAddress/claim/typed-data", {
      params,
      query: TypedDataQuery,
      success: ClaimTypedDataView,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "The typed data to sign for a claim",
          `${typedDataDoc} Returns it filled in for the caller (\`wallet\` defaults to the caller's wallet, \`signedAt\` ` +
            "to now), ready for `eth_signTypedData_v4`. Nothing is checked here: the claim route does. " +
            "400 WALLET_REQUIRED (no wallet on the account and none given)."
        )
      ),
    HttpApiEndpoint.post("claimToken", "/v1/tokens/:mintAddress/claim", {
      params,
      payload: ClaimPayload,
      success: ListingRecord.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict, Gone, ServiceUnavailable, TooManyRequests]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Claim an unclaimed token listing",
          `Session (JWT) plus the on-chain creator's EIP-712 signature. ${typedDataDoc} The signature is verified with ` +
            "viem through the chain's public client (EOA, ERC-1271 wallet, ERC-6492 undeployed wallet). Name and symbol " +
            "are read from the token contract. On success the metadata record is created and linked to the caller " +
            "(`creatorId`) in one transaction; of concurrent claims exactly one succeeds. Errors (ClaimErrorCodes), " +
            "checked in this order: 401 UNAUTHORIZED (no valid session); 404 TOKEN_NOT_FOUND (no canonical FireLaunch " +
            "token at the address); 410 TOKEN_DELETED (removed by an admin); 409 ALREADY_CLAIMED; 400 SIGNATURE_EXPIRED " +
            `(signedAt more than ${CLAIM_MAX_AGE_SECONDS} s ago, or more than ${CLAIM_MAX_SKEW_SECONDS} s in the future; ` +
            "details.reason `expired`/`future`); then the signature, verified as `wallet`'s signature of this typed data " +
            "(EOA, ERC-1271, ERC-6492): when it does not verify, 403 NOT_CREATOR if the signer recovered from it (a " +
            "65-byte ECDSA signature) is the caller's own wallet, which is not the on-chain creator (details `{signer, " +
            "creator, wallet}`); else 400 INVALID_SIGNATURE (not hex, not recoverable, the creator's signature naming " +
            "another `wallet`, or a signature over other data — wrong token, user, time or chain — which recovers to an " +
            "unrelated address that names nobody); when it verifies, 403 NOT_CREATOR if `wallet` is not the on-chain creator. " +
            "Also 400 INVALID_BODY / INVALID_PATH; 503 CHAIN_UNAVAILABLE."
        )
      ),
    HttpApiEndpoint.post("uploadClaimImage", "/v1/tokens/:mintAddress/claim/image", {
      params,
      payload: Schema.Struct({ file: Schema.optionalKey(Multipart.FilesSchema) }).pipe(HttpApiSchema.asMultipart()),
      success: ListingRecord,
      error: [BadRequest, Forbidden, Gone, PayloadTooLarge]
    })
      .middleware(ImageUploadLimits)
      .middleware(ImageRequired)
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Upload the claimed token's image",
          "After a successful claim, by the claimant only. multipart/form-data with one file part `file` (PNG, JPEG, GIF " +
            "or WebP by content, ≤ IMAGE_MAX_BYTES), re-encoded like avatars; sets the record's `image`. 400 " +
            "IMAGE_REQUIRED (no file part, or no multipart body); 403 NOT_CREATOR (not claimed, or claimed by someone " +
            "else); 410 TOKEN_DELETED; 400 NOT_AN_IMAGE; 413 PAYLOAD_TOO_LARGE."
        )
      )
  )
  // After the endpoints: it covers those added before it, and runs before their own middleware (authentication).
  .middleware(LaunchpadDeployed)
  .annotateMerge(
    OpenApi.annotations({
      title: "Claims",
      description:
        "Creator claims of token listings (EIP-712). Every route answers 503 LAUNCHPAD_NOT_DEPLOYED on a chain " +
        "without the launchpad."
    })
  ) {}
