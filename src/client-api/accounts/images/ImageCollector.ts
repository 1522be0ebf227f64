import { Config, Effect, FileSystem, Layer, Option, Schedule } from "effect"
import * as NodePath from "node:path"
import { AppConfig } from "../../../platform/AppConfig.ts"
import { ImageReferencesRepo } from "./ImageReferencesRepo.ts"
import { IMAGE_FILE_PATTERN, imageUrlPath } from "./ImageStore.ts"

/**
 * Collection of uploaded images nothing references (docs/SECURITY.md, threat 23). An upload is stored at once but
 * referenced only later (a comment image before its comment, a launch image before submit), or never: without
 * collection, uploads fill the disk. Every IMAGE_GC_INTERVAL_SECONDS (1 hour) the client service deletes the files of
 * `$DATA_DIR/images` older than IMAGE_GC_GRACE_SECONDS (24 hours) that no row references (ImageReferencesRepo.ts),
 * and write leftovers (`.upload-*`) as old. A file's age is its mtime: the store touches a file when an upload
 * produces it again, so a re-upload gets a fresh grace period.
 */
export interface ImageCollectorSettings {
  readonly graceSeconds: number
  readonly intervalSeconds: number
}

export const imageCollectorConfig: Config.Config<ImageCollectorSettings> = Config.all({
  graceSeconds: Config.Int("IMAGE_GC_GRACE_SECONDS").pipe(Config.withDefault(86_400)),
  intervalSeconds: Config.Int("IMAGE_GC_INTERVAL_SECONDS").pipe(Config.withDefault(3_600))
})

const BATCH = 500

/**
 * One pass: deletes the unreferenced files older than `graceSeconds`; returns how many files it looked at and
 * deleted. Ages are measured against the system clock, the clock that wrote the files' mtimes.
 */
export const collectUnreferencedImages = (graceSeconds: number) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const references = yield* ImageReferencesRepo
    const dir = NodePath.join((yield* AppConfig).dataDir, "images")
    if (!(yield* fs.exists(dir).pipe(Effect.orDie))) return { examined: 0, deleted: 0 }
    const olderThanGrace = (name: string) =>
      fs.stat(NodePath.join(dir, name)).pipe(
        Effect.map((info) => {
          const mtime = Option.getOrUndefined(info.mtime)
          return mtime !== undefined && mtime.getTime() < Date.now() - graceSeconds * 1000
        }),
        // Gone since the listing (a concurrent pass, or an upload's rename): nothing to collect.
        Effect.orElseSucceed(() => false)
      )
    const remove = (name: string) =>
      fs.remove(NodePath.join(dir, name)).pipe(
        Effect.as(1),
        Effect.orElseSucceed(() => 0)
      )

    const names = yield* fs.readDirectory(dir).pipe(Effect.orDie)
    const images = names.filter((name) => IMAGE_FILE_PATTERN.test(name))
    const leftovers = names.filter((name) => name.startsWith(".upload-"))
    let deleted = 0
    for (const name of leftovers) if (yield* olderThanGrace(name)) deleted += yield* remove(name)
    const old: Array<string> = []
    for (const name of images) if (yield* olderThanGrace(name)) old.push(name)
    for (let i = 0; i < old.length; i += BATCH) {
      const batch = old.slice(i, i + BATCH)
      const referenced = yield* references.referenced(batch.map(imageUrlPath))
      for (const name of batch) {
        if (referenced.has(imageUrlPath(name))) continue
        // Checked again just before deleting: an upload of the same picture since the listing touched the file.
        if (yield* olderThanGrace(name)) deleted += yield* remove(name)
      }
    }
    return { examined: images.length + leftovers.length, deleted }
  })

/** The collector for the life of the client service: a pass at start and every IMAGE_GC_INTERVAL_SECONDS. */
export const ImageCollectorLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* imageCollectorConfig
    const pass = collectUnreferencedImages(settings.graceSeconds).pipe(
      Effect.tap(({ deleted, examined }) =>
        deleted > 0
          ? Effect.logInfo(`images: collected ${deleted} of ${examined} unreferenced past the grace`)
          : Effect.void
      ),
      Effect.catchCause((cause) => Effect.logWarning("image collection failed", cause))
    )
    yield* Effect.forkScoped(pass.pipe(Effect.repeat(Schedule.spaced(`${settings.intervalSeconds} seconds`))))
  })
).pipe(Layer.provide(ImageReferencesRepo.layer))
