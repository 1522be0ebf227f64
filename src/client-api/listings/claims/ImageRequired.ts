import { Effect, Layer } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "../../../platform/ApiError.ts"
import { imageRequired } from "../Listing.ts"

/**
 * For image routes where a missing image has its own code (claim image: IMAGE_REQUIRED): a request without a
 * multipart body (the framework's 415, which ImageUploadLimits reports as UNSUPPORTED_MEDIA_TYPE) is a request
 * without an image.
 */
export class ImageRequired extends HttpApiMiddleware.Service<ImageRequired>()("app/claims/ImageRequired", {
  error: BadRequest
}) {}

export const ImageRequiredLive = Layer.succeed(ImageRequired)(
  ImageRequired.of((effect) =>
    Effect.flatMap(effect, (response) =>
      response.status === 415 ? Effect.fail(imageRequired()) : Effect.succeed(response)
    )
  )
)
