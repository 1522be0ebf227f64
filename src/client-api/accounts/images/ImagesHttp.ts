import { Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { ClientApi } from "../../ClientApi.ts"
import { NotFound } from "../../../platform/ApiError.ts"
import { ImageStore } from "./ImageStore.ts"

const headersFor = (file: string) => ({
  "cache-control": "public, max-age=31536000, immutable",
  etag: `"${file.slice(0, 64)}"`,
  "x-content-type-options": "nosniff"
})

export const ImagesHttp = HttpApiBuilder.group(
  ClientApi,
  "images",
  Effect.fn(function* (handlers) {
    const images = yield* ImageStore
    return handlers.handle("getImage", ({ params }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        // Content-addressed: a matching ETag means the client already has these exact bytes.
        if (
          request.headers["if-none-match"] === `"${params.file.slice(0, 64)}"` &&
          (yield* images.exists(params.file))
        ) {
          return HttpServerResponse.empty({ status: 304, headers: headersFor(params.file) })
        }
        const bytes = yield* images.read(params.file)
        if (Option.isNone(bytes)) return yield* new NotFound({ code: "IMAGE_NOT_FOUND", message: "No such image" })
        return HttpServerResponse.uint8Array(bytes.value, {
          contentType: "image/webp",
          headers: headersFor(params.file)
        })
      })
    )
  })
)
