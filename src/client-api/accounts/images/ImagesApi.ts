import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, NotFound } from "../../../platform/ApiError.ts"

/** Stored images (avatars), served by content hash. */
export class ImagesApi extends HttpApiGroup.make("images")
  .add(
    HttpApiEndpoint.get("getImage", "/v1/images/:file", {
      params: {
        file: Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}\.webp$/u)).annotate({
          description: "`<sha256>.webp`, as in a profile's `image`"
        })
      },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "image/webp" })),
      error: [BadRequest, NotFound]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "An uploaded image",
        description:
          "WebP bytes. The name is the hash of the content, so the response never changes: " +
          "`Cache-Control: public, max-age=31536000, immutable` and an ETag. 404 IMAGE_NOT_FOUND."
      })
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Images", description: "Uploaded images" })) {}
