import { ByteSize, Effect, Layer } from "effect"
import { HttpServerResponse, Multipart } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, PayloadTooLarge } from "../../../platform/ApiError.ts"
import { ImageStore } from "./ImageStore.ts"

/**
 * Limits of an image upload route, from config (IMAGE_MAX_BYTES) rather than fixed in the schema: the multipart
 * parser stops reading a file part at the limit. The framework would answer a breach with an empty 413, a malformed
 * body with an empty 400 and a non-multipart body with a text 415; this turns them into the error body every route
 * uses.
 */
export class ImageUploadLimits extends HttpApiMiddleware.Service<ImageUploadLimits>()("app/images/ImageUploadLimits", {
  error: [BadRequest, PayloadTooLarge]
}) {}

export const ImageUploadLimitsLive = Layer.effect(
  ImageUploadLimits,
  Effect.gen(function*() {
    const { maxBytes } = (yield* ImageStore).settings
    const tooLarge = new PayloadTooLarge({
      code: "PAYLOAD_TOO_LARGE",
      message: `The image exceeds the limit of ${maxBytes} bytes`,
      details: { maxBytes }
    })
    const unsupported = HttpServerResponse.jsonUnsafe({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: "Send the image as multipart/form-data with one file part named `file`"
    }, { status: 415 })
    return ImageUploadLimits.of((effect) =>
      effect.pipe(
        Effect.map((response) => (response.status === 415 ? unsupported : response)),
        Effect.provideService(Multipart.MaxFileSize, ByteSize.bytes(maxBytes)),
        Effect.provideService(Multipart.MaxParts, 4),
        Effect.provideService(Multipart.MaxFieldSize, ByteSize.bytes(4096)),
        Effect.catchDefect((defect) => {
          if (!Multipart.isMultipartError(defect)) return Effect.die(defect)
          return defect.reason._tag === "Parse"
            ? Effect.fail(new BadRequest({ code: "INVALID_BODY", message: "The multipart body is malformed" }))
            : defect.reason._tag === "InternalError"
            ? Effect.die(defect)
            : Effect.fail(tooLarge)
        })
      )
    )
  })
)
