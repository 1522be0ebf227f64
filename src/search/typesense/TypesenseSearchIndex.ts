import { Effect, Layer, Redacted } from "effect"
import { Client, Errors } from "typesense"
import type { TypesenseSettings } from "../SearchConfig.ts"
import { type IndexCounts, SearchIndex, SearchUnavailable } from "../SearchIndex.ts"
import type { Hit, MatchKind, ResultPage } from "../SearchQuery.ts"
import { asAddress } from "../text/Terms.ts"
import { poolSearch, tokenSearch } from "./TypesenseQueries.ts"
import {
  type CollectionSchema,
  fromTypesensePool,
  fromTypesenseToken,
  poolsSchema,
  toTypesensePool,
  toTypesenseToken,
  tokensSchema
} from "./TypesenseSchemas.ts"

const describe = (e: unknown) =>
  e instanceof Errors.TypesenseError
    ? `Typesense ${e.httpStatus ?? ""} ${e.message}`.trim()
    : e instanceof Error
      ? e.message
      : String(e)

const call = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: (e) => new SearchUnavailable({ message: `${what}: ${describe(e)}` }) })

interface RawHit {
  readonly document: Record<string, unknown>
  readonly text_match?: number
}
interface RawResult {
  readonly found?: number
  readonly hits?: ReadonlyArray<RawHit>
  readonly error?: string
  readonly code?: number
}

/**
 * The production backend: Typesense through its official client. Collections `<prefix>tokens` and `<prefix>pools`
 * are created at start, or migrated (missing fields added, fields whose type changed dropped and re-added); documents
 * are imported in batches (`action=upsert`, JSONL); one `multi_search` request answers tokens and pools together.
 * Not run against a live Typesense on these machines: its requests are checked by test/search/TypesenseContract.test.ts.
 */
export class TypesenseSearchIndex {
  static readonly make = (settings: TypesenseSettings, batchSize: number) =>
    Effect.sync(() => {
      const client = new Client({
        nodes: [{ url: settings.url }],
        apiKey: Redacted.value(settings.apiKey),
        connectionTimeoutSeconds: settings.timeoutMs / 1000,
        numRetries: 2,
        retryIntervalSeconds: 0.1,
        logLevel: "silent"
      })
      const tokens = tokensSchema(settings.collectionPrefix)
      const pools = poolsSchema(settings.collectionPrefix)

      const ensure = (schema: CollectionSchema) =>
        call(`retrieving ${schema.name}`, async () => {
          try {
            return await client.collections(schema.name).retrieve()
          } catch (e) {
            if (e instanceof Errors.ObjectNotFound) return null
            throw e
          }
        }).pipe(
          Effect.flatMap((existing) => {
            if (existing === null)
              return call(`creating ${schema.name}`, () => client.collections().create(schema as any)).pipe(
                Effect.asVoid
              )
            const have = new Map(existing.fields.map((f) => [f.name, f.type]))
            const changes: Array<Record<string, unknown>> = []
            for (const field of schema.fields) {
              const type = have.get(field.name)
              if (type === undefined) changes.push({ ...field })
              else if (type !== field.type) changes.push({ name: field.name, drop: true }, { ...field })
            }
            return changes.length === 0
              ? Effect.void
              : call(`migrating ${schema.name}`, () =>
                  client.collections(schema.name).update({ fields: changes } as any)
                ).pipe(Effect.asVoid)
          })
        )

      const importBatch = (collection: string, docs: ReadonlyArray<Record<string, unknown>>) =>
        Effect.forEach(
          chunks(docs, batchSize),
          (chunk) =>
            call(`importing into ${collection}`, () =>
              client
                .collections(collection)
                .documents()
                .import([...chunk], { action: "upsert" })
            ),
          { discard: true }
        )

      const upsertAt = (
        syncedAt: number,
        t: ReadonlyArray<Parameters<typeof toTypesenseToken>[0]>,
        p: ReadonlyArray<Parameters<typeof toTypesensePool>[0]>
      ) =>
        Effect.all(
          [
            t.length === 0
              ? Effect.void
              : importBatch(
                  tokens.name,
                  t.map((d) => toTypesenseToken(d, syncedAt))
                ),
            p.length === 0
              ? Effect.void
              : importBatch(
                  pools.name,
                  p.map((d) => toTypesensePool(d, syncedAt))
                )
          ],
          { discard: true }
        )

      const deleteWhere = (collection: string, filter: string) =>
        call(`deleting from ${collection}`, () =>
          client.collections(collection).documents().delete({ filter_by: filter })
        )

      const idFilter = (ids: ReadonlyArray<string>) => `id:[${ids.map((id) => "`" + id + "`").join(",")}]`

      return SearchIndex.of({
        backend: "typesense",
        prepare: Effect.all([ensure(tokens), ensure(pools)], { discard: true }),
        search: (request) =>
          Effect.gen(function* () {
            const searches = [
              ...(request.tokens === undefined ? [] : [tokenSearch(tokens.name, request.tokens)]),
              ...(request.pools === undefined ? [] : [poolSearch(pools.name, request.pools)])
            ]
            const response = yield* call("searching", () => client.multiSearch.perform({ searches } as any, {}))
            const results = (response as unknown as { results: ReadonlyArray<RawResult> }).results
            for (const r of results) {
              if (r.error !== undefined)
                return yield* new SearchUnavailable({ message: `Typesense ${r.code ?? ""} ${r.error}` })
            }
            let i = 0
            const tokenResult = request.tokens === undefined ? undefined : results[i++]
            const poolResult = request.pools === undefined ? undefined : results[i++]
            return {
              tokens:
                tokenResult === undefined ? undefined : toPage(tokenResult, fromTypesenseToken, request.tokens!.q),
              pools: poolResult === undefined ? undefined : toPage(poolResult, fromTypesensePool, request.pools!.q)
            }
          }),
        upsert: (t, p) => upsertAt(Date.now(), t, p),
        remove: (tokenIds, poolIds) =>
          Effect.all(
            [
              tokenIds.length === 0 ? Effect.void : deleteWhere(tokens.name, idFilter(tokenIds)),
              poolIds.length === 0 ? Effect.void : deleteWhere(pools.name, idFilter(poolIds))
            ],
            { discard: true }
          ),
        rebuild: Effect.sync(() => {
          // Every document re-sent carries this stamp; what still has an older one afterwards no longer exists.
          const stamp = Date.now()
          return {
            add: (t, p) => upsertAt(stamp, t, p),
            commit: Effect.all(
              [deleteWhere(tokens.name, `synced_at:<${stamp}`), deleteWhere(pools.name, `synced_at:<${stamp}`)],
              { discard: true }
            )
          }
        }),
        counts: Effect.map(
          Effect.all([
            call("counting tokens", () => client.collections(tokens.name).retrieve()),
            call("counting pools", () => client.collections(pools.name).retrieve())
          ]),
          ([t, p]): IndexCounts => ({ tokens: t.num_documents, pools: p.num_documents })
        ),
        ping: Effect.gen(function* () {
          const start = performance.now()
          const health = yield* call("health", () => client.health.retrieve())
          if (!health.ok) return yield* new SearchUnavailable({ message: "Typesense /health answered ok: false" })
          return Math.round((performance.now() - start) * 10) / 10
        })
      } as SearchIndex["Service"])
    })

  static readonly layer = (settings: TypesenseSettings, batchSize: number) =>
    Layer.effect(SearchIndex, TypesenseSearchIndex.make(settings, batchSize))
}

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** A Typesense result as a page. An address query was a filter: the exact document is marked (and put) first. */
const toPage = <D extends { readonly address: string }>(
  result: RawResult,
  decode: (d: Record<string, unknown>) => D,
  q: string
): ResultPage<D> => {
  const address = asAddress(q)
  const empty = q.trim() === ""
  const hits: Array<Hit<D>> = (result.hits ?? []).map((h) => {
    const document = decode(h.document)
    const match: MatchKind =
      address !== null ? (document.address === address ? "address" : "token") : empty ? "all" : "prefix"
    return { document, score: h.text_match ?? 0, match }
  })
  hits.sort((a, b) => Number(b.match === "address") - Number(a.match === "address"))
  return { hits, total: result.found ?? hits.length }
}
