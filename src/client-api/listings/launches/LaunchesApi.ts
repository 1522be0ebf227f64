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
  ServiceUnavailable
} from "../../../platform/ApiError.ts"
import { ImageUploadLimits } from "../../accounts/images/ImageUploadLimits.ts"
import { LaunchpadDeployed } from "../LaunchpadDeployed.ts"
import {
  CreateLaunchPayload,
  LaunchCategories,
  LaunchId,
  LaunchList,
  LaunchView,
  SubmitLaunchPayload
} from "./Launch.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const params = { id: LaunchId }
const illegal =
  "409 LAUNCH_<STATUS> (LAUNCH_DRAFT, LAUNCH_IMAGE_UPLOADED, LAUNCH_COMPLETED, LAUNCH_FAILED: the state " +
  "the launch is in; details.allowedFrom lists the states this action accepts)"
const notFound = "404 LAUNCH_NOT_FOUND (unknown, or another user's launch)"

/** The launch flow: DRAFT → IMAGE_UPLOADED → COMPLETED, FAILED, deletion of drafts (spec: States and transitions). */
export class LaunchesApi extends HttpApiGroup.make("launches")
  .add(
    HttpApiEndpoint.post("createLaunch", "/v1/launch", {
      payload: CreateLaunchPayload,
      success: LaunchView.pipe(HttpApiSchema.status(201)),
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Start a launch (DRAFT)",
          "name 1–32 characters; symbol 1–10 letters/digits; description ≤ 500; category one of " +
            `${LaunchCategories.join(", ")}; chainId the configured chain. One in-flight (DRAFT or IMAGE_UPLOADED) launch ` +
            "per user per (chainId, symbol), symbol case-insensitive, enforced by a unique index (also under concurrent " +
            "requests): 400 DUPLICATE_LAUNCH (details.launchId = the existing one). 400 CHAIN_NOT_SUPPORTED, INVALID_BODY."
        )
      ),
    HttpApiEndpoint.get("getPendingLaunches", "/v1/launch/pending", {
      success: LaunchList
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "My pending launches",
          "The caller's launches in DRAFT or IMAGE_UPLOADED, newest first (at most one per (chainId, symbol), so the list is small)."
        )
      ),
    HttpApiEndpoint.get("getLaunch", "/v1/launch/:id", {
      params,
      success: LaunchView,
      error: [BadRequest, NotFound]
    })
      .middleware(Authentication)
      .annotateMerge(doc("A launch of mine", `Owner only. ${notFound}; 400 INVALID_PATH.`)),
    HttpApiEndpoint.post("uploadLaunchImage", "/v1/launch/:id/image", {
      params,
      payload: Schema.Struct({ file: Multipart.SingleFileSchema }).pipe(HttpApiSchema.asMultipart()),
      success: LaunchView,
      error: [BadRequest, NotFound, Conflict, PayloadTooLarge]
    })
      .middleware(ImageUploadLimits)
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Upload the launch image: DRAFT → IMAGE_UPLOADED",
          "multipart/form-data, one file part `file`, processed like avatars (PNG/JPEG/GIF/WebP by content, re-encoded to " +
            `WebP). Only from DRAFT. ${notFound}; ${illegal}; 400 NOT_AN_IMAGE; 413 PAYLOAD_TOO_LARGE.`
        )
      ),
    HttpApiEndpoint.post("submitLaunch", "/v1/launch/:id/submit", {
      params,
      payload: SubmitLaunchPayload,
      success: LaunchView,
      error: [BadRequest, NotFound, Conflict, Forbidden, Gone, ServiceUnavailable]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Submit the ignited token: IMAGE_UPLOADED → COMPLETED",
          "After the wallet called FireLaunch.ignite: `tokenAddress` must be a canonical FireLaunch token whose on-chain " +
            "creator is the caller's wallet and that has no metadata record. Then, in one transaction, the launch becomes " +
            "COMPLETED and the token's metadata record is created from the draft (name and symbol read from the token " +
            "contract; description, category and image from the draft). Idempotent: submitting the same token again " +
            `answers the COMPLETED launch. ${notFound}; ${illegal}; 404 TOKEN_NOT_FOUND; 403 NOT_CREATOR; 409 ` +
            "ALREADY_CLAIMED (the token has a metadata record); 410 TOKEN_DELETED; 503 CHAIN_UNAVAILABLE."
        )
      ),
    HttpApiEndpoint.post("failLaunch", "/v1/launch/:id/fail", {
      params,
      success: LaunchView,
      error: [BadRequest, NotFound, Conflict]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Mark a launch FAILED",
          `From DRAFT or IMAGE_UPLOADED (COMPLETED cannot fail: 409 LAUNCH_COMPLETED). Idempotent: failing a FAILED launch answers it unchanged (FAILED is final). Frees the (chainId, symbol) slot. ${notFound}; ${illegal}.`
        )
      ),
    HttpApiEndpoint.delete("deleteLaunch", "/v1/launch/:id", {
      params,
      error: [BadRequest, NotFound, Conflict]
    })
      .middleware(Authentication)
      .annotateMerge(doc("Delete a draft", `Only a DRAFT; 204 No Content. ${notFound}; ${illegal}.`))
  )
  // After the endpoints: it covers those added before it, and runs before their own middleware (authentication).
  .middleware(LaunchpadDeployed)
  .annotateMerge(
    OpenApi.annotations({
      title: "Launches",
      description:
        "The off-chain launch flow. Every route answers 503 LAUNCHPAD_NOT_DEPLOYED on a chain without the launchpad."
    })
  ) {}
