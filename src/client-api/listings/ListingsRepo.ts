import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import { ListingRecord } from "./ListingRecord.ts"

/** A token_metadata row (camelCase through the client's transforms). */
export const MetadataRow = Schema.Struct({
  chainId: Schema.Int,
  tokenAddress: Schema.String,
  creatorId: Schema.String,
  creatorWallet: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  description: Schema.NullOr(Schema.String),
  category: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String),
  source: Schema.Literals(["claim", "launch"]),
  launchId: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export type Metadata = typeof MetadataRow.Type

export interface NewMetadata {
  readonly chainId: number
  /** lowercase */
  readonly tokenAddress: string
  readonly creatorId: string
  readonly creatorWallet: string
  readonly name: string
  readonly symbol: string
  readonly description: string | null
  readonly category: string | null
  readonly image: string | null
  readonly source: "claim" | "launch"
  readonly launchId: string | null
}

/** Why an insert did not happen: the token is hidden, or someone holds the record already. */
export type InsertRefusal = { readonly _tag: "Hidden" } | { readonly _tag: "Taken"; readonly existing: Metadata }

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(MetadataRow))
const first = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(rows), (r) => Option.fromNullishOr(r[0]))

/**
 * All SQL of token_metadata and token_hides (tables: sql/0020_create_token_listings.sql). Addresses are lowercase.
 * Database failures are defects (5xx). Every method runs inside the caller's transaction when there is one.
 */
export class ListingsRepo extends Context.Service<
  ListingsRepo,
  {
    readonly metadata: (chainId: number, token: string) => Effect.Effect<Option.Option<Metadata>>
    readonly isHidden: (chainId: number, token: string) => Effect.Effect<boolean>
    /**
     * Creates the metadata record unless the token is hidden or already has one, in one statement: the primary key
     * decides between concurrent inserts (exactly one wins), so no lock or prior read is needed.
     */
    readonly insertMetadata: (
      row: NewMetadata
    ) => Effect.Effect<{ readonly _tag: "Inserted"; readonly row: Metadata } | InsertRefusal>
    /** Sets the image of a record owned by `creatorId`; none when there is no such record. */
    readonly setImage: (
      chainId: number,
      token: string,
      creatorId: string,
      image: string
    ) => Effect.Effect<Option.Option<Metadata>>
    /** Hides / unhides with an audit row, atomically; false when nothing changed (already hidden / not hidden). */
    readonly setHidden: (input: {
      readonly chainId: number
      readonly token: string
      readonly adminId: string
      readonly hidden: boolean
      readonly reason: string | null
    }) => Effect.Effect<boolean>
  }
>()("app/listings/ListingsRepo") {
  static readonly layer = Layer.effect(
    ListingsRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const metadata = (chainId: number, token: string) =>
        sql`SELECT * FROM token_metadata WHERE chain_id = ${chainId} AND token_address = ${token}`.pipe(
          Effect.flatMap(first),
          Effect.orDie
        )
      const isHidden = (chainId: number, token: string) =>
        sql`SELECT 1 FROM token_hides WHERE chain_id = ${chainId} AND token_address = ${token}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )

      const insertMetadata = (row: NewMetadata) =>
        Effect.gen(function* () {
          const inserted = yield* sql`
            INSERT INTO token_metadata ${sql.insert({ ...row })}
            ON CONFLICT (chain_id, token_address) DO NOTHING
            RETURNING *`.pipe(Effect.flatMap(first))
          if (Option.isSome(inserted)) {
            // A hide committed between the caller's check and this insert must still win: check again, inside the
            // same transaction, and let the caller roll back.
            if (yield* isHidden(row.chainId, row.tokenAddress)) return { _tag: "Hidden" } as const
            return { _tag: "Inserted", row: inserted.value } as const
          }
          if (yield* isHidden(row.chainId, row.tokenAddress)) return { _tag: "Hidden" } as const
          const existing = yield* metadata(row.chainId, row.tokenAddress)
          return { _tag: "Taken", existing: Option.getOrThrow(existing) } as const
        }).pipe(Effect.orDie)

      return ListingsRepo.of({
        metadata,
        isHidden,
        insertMetadata,
        setImage: (chainId, token, creatorId, image) =>
          sql`
            UPDATE token_metadata SET image = ${image}, updated_at = now()
            WHERE chain_id = ${chainId} AND token_address = ${token} AND creator_id = ${creatorId}
            RETURNING *`.pipe(Effect.flatMap(first), Effect.orDie),
        setHidden: ({ adminId, chainId, hidden, reason, token }) =>
          sql
            .withTransaction(
              Effect.gen(function* () {
                const changed = hidden
                  ? yield* sql`
                INSERT INTO token_hides ${sql.insert({ chainId, tokenAddress: token, hiddenBy: adminId, reason })}
                ON CONFLICT (chain_id, token_address) DO NOTHING RETURNING 1`
                  : yield* sql`DELETE FROM token_hides WHERE chain_id = ${chainId} AND token_address = ${token} RETURNING 1`
                if (changed.length === 0) return false
                yield* sql`INSERT INTO token_admin_actions ${sql.insert({
                  adminId,
                  chainId,
                  tokenAddress: token,
                  action: hidden ? "hide" : "unhide",
                  reason
                })}`
                return true
              })
            )
            .pipe(Effect.orDie)
      })
    })
  )
}

/** A stored record as the API returns it (ListingRecord.ts). */
export const toListingRecord = (m: Metadata) =>
  new ListingRecord({
    chainId: m.chainId,
    mintAddress: getAddress(m.tokenAddress),
    creatorId: m.creatorId,
    creatorWallet: m.creatorWallet,
    name: m.name,
    symbol: m.symbol,
    description: m.description,
    category: m.category,
    image: m.image,
    source: m.source,
    launchId: m.launchId,
    claimedAt: m.createdAt.toISOString()
  })
