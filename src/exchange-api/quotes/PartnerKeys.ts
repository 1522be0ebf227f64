import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { createHash, randomBytes } from "node:crypto"
import { type QuoteSettings, quoteSettings } from "./QuoteConfig.ts"

/** A verified key: its partner and its limit. */
export interface Partner {
  readonly keyHash: string
  readonly partner: string
  readonly rateLimit: { readonly limit: number; readonly windowSeconds: number }
}

export interface PartnerKeyRow {
  readonly keyHash: string
  readonly partner: string
  readonly keyPrefix: string
  readonly source: "config" | "admin"
  readonly rateLimit: number | null
  readonly rateWindowSeconds: number | null
  readonly createdAt: Date
  readonly revokedAt: Date | null
}

export const hashKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex")

/** `fq_` + 32 random bytes (base64url): what `create` hands out once. */
const newKey = () => `fq_${randomBytes(32).toString("base64url")}`

/**
 * Partner keys (spec "Authentication"): stored as sha256 only (`quote_partner_keys`), one partner per key.
 * `check` answers from an in-process copy of the active keys, reloaded every QUOTE_KEYS_REFRESH_MS and right after
 * this process changes a key, so a request costs no query. Rotation: create a new key for the partner, hand it over,
 * revoke the old one (both work in between). Revocation takes effect within QUOTE_KEYS_REFRESH_MS everywhere.
 */
export class PartnerKeys extends Context.Service<
  PartnerKeys,
  {
    /**
     * `open`: no active key exists at all and QUOTE_OPEN allows that (development: every request passes, limited
     * per IP). Without QUOTE_OPEN no key at all means every request is `invalid`: fail closed.
     */
    readonly check: (key: string | undefined) => Effect.Effect<Partner | "open" | "invalid">
    readonly create: (
      partner: string,
      limit?: { limit: number; windowSeconds: number }
    ) => Effect.Effect<{ key: string; keyHash: string }>
    readonly revoke: (keyHashOrPrefix: string) => Effect.Effect<number>
    readonly list: Effect.Effect<ReadonlyArray<PartnerKeyRow>>
  }
>()("app/quotes/PartnerKeys") {
  /** The exchange service's keys: QUOTE_API_KEYS synchronised into the table at start. */
  static readonly layer = Layer.effect(
    PartnerKeys,
    Effect.suspend(() => make(true))
  )
  /** For the admin CLI: the table as it is (a CLI run without QUOTE_API_KEYS must not revoke the configured keys). */
  static readonly layerPassive = Layer.effect(
    PartnerKeys,
    Effect.suspend(() => make(false))
  )
}

const make = (sync: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* quoteSettings
    if (sync) yield* syncConfigKeys(sql, settings)
    let active = new Map<string, Partner>()
    let loadedAt = 0
    const reload = Effect.gen(function* () {
      const rows = yield* sql<PartnerKeyRow>`SELECT * FROM quote_partner_keys WHERE revoked_at IS NULL`
      active = new Map(
        rows.map((r) => [
          r.keyHash,
          {
            keyHash: r.keyHash,
            partner: r.partner,
            rateLimit: {
              limit: r.rateLimit ?? settings.rateLimit.limit,
              windowSeconds: r.rateWindowSeconds ?? settings.rateLimit.windowSeconds
            }
          }
        ])
      )
      loadedAt = Date.now()
    }).pipe(Effect.orDie)
    yield* reload
    const fresh = Effect.suspend(() => (Date.now() - loadedAt > settings.keysRefreshMs ? reload : Effect.void))
    return PartnerKeys.of({
      check: (key) =>
        Effect.map(fresh, () => {
          if (active.size === 0) return settings.openWithoutKeys ? ("open" as const) : ("invalid" as const)
          if (key === undefined || key === "") return "invalid" as const
          return active.get(hashKey(key)) ?? ("invalid" as const)
        }),
      create: (partner, limit) =>
        Effect.gen(function* () {
          const key = newKey()
          const keyHash = hashKey(key)
          yield* sql`INSERT INTO quote_partner_keys ${sql.insert({
            keyHash,
            partner,
            keyPrefix: key.slice(0, 10),
            source: "admin",
            rateLimit: limit?.limit ?? null,
            rateWindowSeconds: limit?.windowSeconds ?? null
          })}`
          yield* reload
          return { key, keyHash }
        }).pipe(Effect.orDie),
      revoke: (id) =>
        Effect.gen(function* () {
          const rows = yield* sql<{ keyHash: string }>`
            UPDATE quote_partner_keys SET revoked_at = now()
            WHERE revoked_at IS NULL AND (key_hash = ${id} OR key_prefix = ${id}) RETURNING key_hash`
          yield* reload
          return rows.length
        }).pipe(Effect.orDie),
      list: sql<PartnerKeyRow>`SELECT * FROM quote_partner_keys ORDER BY created_at`.pipe(Effect.orDie)
    })
  })

/** Config keys are upserted; config keys that are no longer configured are revoked (rotation through configuration). */
const syncConfigKeys = (sql: SqlClient.SqlClient, settings: QuoteSettings) =>
  Effect.gen(function* () {
    const hashes = settings.apiKeys.map((k) => hashKey(k.key))
    for (const [i, k] of settings.apiKeys.entries()) {
      yield* sql`
        INSERT INTO quote_partner_keys (key_hash, partner, key_prefix, source)
        VALUES (${hashes[i]!}, ${k.partner}, ${k.key.slice(0, 10)}, 'config')
        ON CONFLICT (key_hash) DO UPDATE SET partner = EXCLUDED.partner, revoked_at = NULL
        WHERE quote_partner_keys.source = 'config'`
    }
    yield* sql`
      UPDATE quote_partner_keys SET revoked_at = now()
      WHERE source = 'config' AND revoked_at IS NULL AND ${hashes.length === 0 ? sql`true` : sql`key_hash NOT IN ${sql.in(hashes)}`}`
  }).pipe(Effect.orDie)
