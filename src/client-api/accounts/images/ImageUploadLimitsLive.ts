import { ByteSize, Effect, Layer } from "effect"
import { HttpServerResponse, Multipart } from "effect/http"
import { BadRequest, PayloadTooLarge } from "../../../platform/ApiError.ts"
import { ImageStore } from "./ImageStore.ts"
import { ImageUploadLimits } from "./ImageUploadLimits.ts"

/** The image upload limits (ImageUploadLimits.ts) from the image store's settings. */
export const ImageUploadLimitsLive = Layer.effect(
  ImageUploadLimits,
  Effect.gen(function* () {
    const { maxBytes } = (yield* ImageStore).settings
    const tooLarge = new PayloadTooLarge({
      code: "PAYLOAD_TOO_LARGE",
      message: `The image exceeds the limit of ${maxBytes} bytes`,
      details: { maxBytes }
    })
    const unsupported = HttpServerResponse.jsonUnsafe(
      {
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: "Send the image as multipart/form-data with one file part named `file`"
      },
      { status: 415 }
    )
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
