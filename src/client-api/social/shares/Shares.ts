import { Config, Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { randomInt } from "node:crypto"
import { getAddress } from "viem"
import { Chain } from "../../../platform/Chain.ts"
import { Gone, NotFound } from "../../../platform/ApiError.ts"
import { ShareLink } from "./ShareLink.ts"

interface Row {
  readonly code: string
  readonly token: string
  readonly visits: string
  readonly createdAt: Date
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const newCode = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")

const tokenNotFound = (mint: string) =>
  new NotFound({
    code: "TOKEN_NOT_FOUND",
    message: "No launched token at this address",
    details: { mintAddress: mint }
  })

/** Share links: one per (user, token), created on first request; the redirect counts visits atomically. */
export class Shares extends Context.Service<
  Shares,
  {
    readonly create: (userId: string, mintAddress: string) => Effect.Effect<ShareLink, NotFound | Gone>
    /** Counts the visit and returns the redirect target. */
    readonly visit: (code: string) => Effect.Effect<string, NotFound>
  }
>()("app/shares/Shares") {
  static readonly layer = Layer.effect(
    Shares,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const { chainId } = yield* Chain
      const template = yield* Config.String("SHARE_REDIRECT_TEMPLATE").pipe(Config.withDefault("/tokens/{mintAddress}"))
      const targetOf = (token: string) => template.replaceAll("{mintAddress}", getAddress(token))
      const toLink = (row: Row) =>
        new ShareLink({
          code: row.code,
          path: `/v1/shares/${row.code}`,
          mintAddress: getAddress(row.token),
          target: targetOf(row.token),
          visits: Number(row.visits),
          createdAt: row.createdAt.toISOString()
        })

      const insert = (userId: string, token: string): Effect.Effect<Row> =>
        sql<Row>`
          INSERT INTO share_links (code, user_id, chain_id, token) VALUES (${newCode()}, ${userId}, ${chainId}, ${token})
          ON CONFLICT (user_id, chain_id, token) DO UPDATE SET code = share_links.code
          RETURNING code, token, visits::text AS visits, created_at`.pipe(
          Effect.map((rows) => rows[0]!),
          // A code already taken by another link (1 in 62^8 per existing link): draw again.
          Effect.catchTag("SqlError", (e) =>
            e.reason._tag === "UniqueViolation" ? insert(userId, token) : Effect.die(e)
          )
        )

      return Shares.of({
        create: Effect.fn("Shares.create")(function* (userId: string, mintAddress: string) {
          const token = mintAddress.toLowerCase()
          const known = yield* sql<{ hidden: boolean }>`
            SELECT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = t.chain_id AND h.token_address = t.address) AS hidden
            FROM tokens t WHERE t.chain_id = ${chainId} AND t.address = ${token} AND t.is_launch`.pipe(Effect.orDie)
          if (known.length === 0) return yield* tokenNotFound(mintAddress)
          if (known[0]!.hidden) {
            return yield* new Gone({
              code: "TOKEN_DELETED",
              message: "The token was removed by an admin",
              details: { mintAddress }
            })
          }
          return toLink(yield* insert(userId, token))
        }),
        visit: (code) =>
          sql<{ token: string }>`
            UPDATE share_links SET visits = visits + 1, last_visit_at = now() WHERE code = ${code} RETURNING token`.pipe(
            Effect.orDie,
            Effect.map((rows) => Option.fromNullishOr(rows[0])),
            Effect.flatMap(
              Option.match({
                onNone: () => Effect.fail(new NotFound({ code: "SHARE_NOT_FOUND", message: "No such share link" })),
                onSome: (row) => Effect.succeed(targetOf(row.token))
              })
            )
          )
      })
    })
  )
}
