import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { quoteSettings } from "./QuoteConfig.ts"

/**
 * The per-chain token allowlist of POST /api/v1/quote (spec "Quotes", POST rules): QUOTE_ALLOWLIST (synchronised into
 * `quote_allowlist` with source 'config' at start) plus rows added by the admin CLI (source 'admin'). Read from the
 * table on every use (one indexed query), so admin changes apply at once in every process.
 */
export class Allowlist extends Context.Service<
  Allowlist,
  {
    readonly list: (chainId: number) => Effect.Effect<ReadonlyArray<string>>
    /** The addresses (lowercase) of `tokens` that are not on the chain's list. */
    readonly rejected: (chainId: number, tokens: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
    readonly add: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<void>
    readonly remove: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<number>
  }
>()("app/quotes/Allowlist") {
  /** The exchange service's list: QUOTE_ALLOWLIST synchronised into the table at start. */
  static readonly layer = Layer.effect(
    Allowlist,
    Effect.suspend(() => make(true))
  )
  /** For the admin CLI: the table as it is. */
  static readonly layerPassive = Layer.effect(
    Allowlist,
    Effect.suspend(() => make(false))
  )
}

const make = (sync: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* quoteSettings
    // Configuration is the truth for 'config' rows: re-synchronised at each start (in one transaction).
    if (sync) {
      yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* sql`DELETE FROM quote_allowlist WHERE source = 'config'`
            for (const [chainId, addresses] of settings.allowlist) {
              for (const address of addresses) {
                yield* sql`INSERT INTO quote_allowlist (chain_id, address, source) VALUES (${chainId}, ${address}, 'config')
                       ON CONFLICT DO NOTHING`
              }
            }
          })
        )
        .pipe(Effect.orDie)
    }
    const list = (chainId: number) =>
      sql<{ address: string }>`SELECT address FROM quote_allowlist WHERE chain_id = ${chainId} ORDER BY address`.pipe(
        Effect.map((rows) => rows.map((r) => r.address)),
        Effect.orDie
      )
    return Allowlist.of({
      list,
      rejected: (chainId, tokens) =>
        Effect.map(list(chainId), (allowed) => {
          const set = new Set(allowed)
          return [...new Set(tokens.map((t) => t.toLowerCase()))].filter((t) => !set.has(t))
        }),
      add: (chainId, addresses) =>
        Effect.forEach(
          addresses,
          (a) =>
            sql`INSERT INTO quote_allowlist (chain_id, address, source) VALUES (${chainId}, ${a.toLowerCase()}, 'admin')
              ON CONFLICT DO NOTHING`,
          { discard: true }
        ).pipe(Effect.orDie),
      remove: (chainId, addresses) =>
        sql<{ address: string }>`DELETE FROM quote_allowlist WHERE chain_id = ${chainId}
            AND address IN ${sql.in(addresses.map((a) => a.toLowerCase()))} RETURNING address`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
