import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, PayloadTooLarge } from "../../../platform/ApiError.ts"

/**
 * Limits of an image upload route, from config (IMAGE_MAX_BYTES) rather than fixed in the schema: the multipart
 * parser stops reading a file part at the limit. The framework would answer a breach with an empty 413, a malformed
 * body with an empty 400 and a non-multipart body with a text 415; this turns them into the error body every route
 * uses.
 */
export class ImageUploadLimits extends HttpApiMiddleware.Service<ImageUploadLimits>()("app/images/ImageUploadLimits", {
  error: [BadRequest, PayloadTooLarge]
}) {}
