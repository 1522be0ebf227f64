import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Which stored images something still shows, for the image collector (ImageCollector.ts). Every place that keeps an
 * image keeps its `/v1/images/<sha256>.webp` path in an `image` column: a user's avatar (`users`), a listed token's
 * launch or claim image (`token_metadata`), a launch in progress (`launch_flows`) and a comment (`comments`, deleted
 * ones included). A new column that keeps image paths must be added here, or its images are collected.
 */
export class ImageReferencesRepo extends Context.Service<
  ImageReferencesRepo,
  {
    /** The paths among `paths` that some row references. */
    readonly referenced: (paths: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
  }
>()("app/images/ImageReferencesRepo") {
  static readonly layer = Layer.effect(
    ImageReferencesRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return ImageReferencesRepo.of({
        referenced: (paths) =>
          paths.length === 0
            ? Effect.succeed(new Set<string>())
            : sql<{ readonly image: string }>`
                SELECT image FROM users WHERE image IN ${sql.in(paths)}
                UNION SELECT image FROM token_metadata WHERE image IN ${sql.in(paths)}
                UNION SELECT image FROM launch_flows WHERE image IN ${sql.in(paths)}
                UNION SELECT image FROM comments WHERE image IN ${sql.in(paths)}`.pipe(
                Effect.map((rows) => new Set(rows.map((row) => row.image))),
                Effect.orDie
              )
      })
    })
  )
}
