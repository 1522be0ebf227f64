import { Config, Context, Effect, FileSystem, Layer, Option } from "effect"
import { createHash, randomUUID } from "node:crypto"
import * as NodePath from "node:path"
import sharp from "sharp"
import { AppConfig } from "../../../platform/AppConfig.ts"
import { BadRequest } from "../../../platform/ApiError.ts"
import { uploadFileBytesConfig } from "../../../platform/http/BodyLimits.ts"
import { sniffImageType } from "./ImageSniff.ts"

export interface ImageSettings {
  /** Largest accepted upload (the file part), in bytes. Also bounded by MAX_BODY_BYTES for the whole request. */
  readonly maxBytes: number
  /** Stored images fit in a square of this many pixels (aspect ratio kept, never enlarged). */
  readonly maxDimension: number
}

export const imageSettingsConfig: Config.Config<ImageSettings> = Config.all({
  maxBytes: uploadFileBytesConfig,
  maxDimension: Config.Int("IMAGE_MAX_DIMENSION").pipe(Config.withDefault(512))
})

/** `<sha256>.webp`: the only file names the store writes or serves. */
export const IMAGE_FILE_PATTERN = /^[0-9a-f]{64}\.webp$/
export const imageUrlPath = (file: string) => `/v1/images/${file}`

// Decompression bombs: refuse inputs above 40 megapixels before decoding them.
const MAX_INPUT_PIXELS = 40_000_000

/**
 * Content-addressed image storage under `$DATA_DIR/images`. An upload is accepted only when its magic bytes say PNG,
 * JPEG, GIF or WebP and sharp can decode it; it is then re-encoded to WebP (first frame only, EXIF orientation
 * applied, at most `maxDimension` pixels a side, all metadata dropped — sharp keeps none unless asked) and stored
 * as `<sha256 of the WebP>.webp`, so equal avatars are stored once and a file never changes once written.
 */
export class ImageStore extends Context.Service<
  ImageStore,
  {
    readonly settings: ImageSettings
    /** Re-encodes and stores the upload at `path`; returns the stored file name. 400 NOT_AN_IMAGE otherwise. */
    readonly store: (path: string) => Effect.Effect<string, BadRequest>
    /** The bytes of a stored file; none for a name that is not `<sha256>.webp` or not stored. */
    readonly read: (file: string) => Effect.Effect<Option.Option<Uint8Array>>
    readonly exists: (file: string) => Effect.Effect<boolean>
  }
>()("app/images/ImageStore") {
  static readonly layer = Layer.effect(
    ImageStore,
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const settings = yield* imageSettingsConfig
      const dir = NodePath.join((yield* AppConfig).dataDir, "images")
      const pathOf = (file: string) => NodePath.join(dir, file)
      const notAnImage = (why: string) =>
        new BadRequest({
          code: "NOT_AN_IMAGE",
          message: `The upload is not a usable image: ${why} (PNG, JPEG, GIF or WebP)`
        })

      const store = Effect.fn("ImageStore.store")(function* (path: string) {
        const bytes = yield* fs.readFile(path).pipe(Effect.orDie)
        const type = sniffImageType(bytes)
        if (type === undefined) return yield* notAnImage("its content is not PNG, JPEG, GIF or WebP")
        const webp = yield* Effect.tryPromise({
          try: () =>
            sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
              .rotate()
              .resize({
                width: settings.maxDimension,
                height: settings.maxDimension,
                fit: "inside",
                withoutEnlargement: true
              })
              .webp({ quality: 82 })
              .toBuffer(),
          catch: () => notAnImage(`the ${type.toUpperCase()} data cannot be decoded`)
        })
        const file = `${createHash("sha256").update(webp).digest("hex")}.webp`
        if (yield* fs.exists(pathOf(file)).pipe(Effect.orDie)) {
          // Stored before: a fresh mtime gives it a fresh grace period against the collector (ImageCollector.ts),
          // which may otherwise take it as unreferenced before the caller references it.
          const now = new Date()
          yield* fs.utimes(pathOf(file), now, now).pipe(Effect.ignore)
        } else {
          // Write then rename: a reader never sees a half-written file, and concurrent equal uploads are harmless.
          const temporary = pathOf(`.upload-${randomUUID()}`)
          yield* fs.makeDirectory(dir, { recursive: true }).pipe(Effect.orDie)
          yield* fs.writeFile(temporary, webp).pipe(Effect.andThen(fs.rename(temporary, pathOf(file))), Effect.orDie)
        }
        return file
      })

      const valid = (file: string) => IMAGE_FILE_PATTERN.test(file)
      return ImageStore.of({
        settings,
        store,
        read: (file) =>
          valid(file)
            ? fs.readFile(pathOf(file)).pipe(
                Effect.map(Option.some),
                Effect.catch(() => Effect.succeed(Option.none()))
              )
            : Effect.succeed(Option.none()),
        exists: (file) => (valid(file) ? fs.exists(pathOf(file)).pipe(Effect.orDie) : Effect.succeed(false))
      })
    })
  )
}
