import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLScalarType,
  GraphQLSchema,
  GraphQLString
} from "graphql"
import { IndexerStatus } from "../IndexerStatus.ts"
import { Health, version } from "../../platform/system/Health.ts"
import { columnOf, entities, entityByType, type EntityDef, type FieldKind, tableOf } from "./Entities.ts"
import { buildList, cursorOf, type ListArgs, operators } from "./ListQuery.ts"
import { BigIntScalar, TimestampScalar } from "./Scalars.ts"
import { SubscriptionHub } from "./Subscriptions.ts"

/** Per-request state: batched to-one lookups (one query per relation and request, not one per row). */
export interface GraphqlContext {
  readonly loaders: Map<string, (key: string) => Promise<Record<string, unknown> | null>>
}
export const newContext = (): GraphqlContext => ({ loaders: new Map() })

const scalarOf: Record<FieldKind, GraphQLScalarType> = {
  String: GraphQLString,
  Address: GraphQLString,
  Int: GraphQLInt,
  Float: GraphQLFloat,
  Boolean: GraphQLBoolean,
  BigInt: BigIntScalar,
  Timestamp: TimestampScalar
}

/** The list fields of the schema and the table each reads (the cost limit counts their `first` and prices scans). */
export const listTables: ReadonlyMap<string, string> = new Map(entities.map((e) => [e.list, tableOf(e)]))

/**
 * The indexer's GraphQL schema, generated from `Entities.ts`: one paged list per entity with `where` (eq, not, in,
 * gt/gte/lt/lte, contains; AND/OR), `orderBy`/`orderDirection`, `first` (default 50, at most 1,000) and `after`
 * (opaque keyset cursor); to-one links between entities; big integers as strings; and `_meta`, the indexer's status.
 * Subscriptions (graphql-ws on the same path): `launches`, `swaps(pool)` and `poolUpdated(pool)`, fed by the
 * indexer's change feed after each commit and read back from Postgres, multiplexed by `SubscriptionHub`.
 */
export class GraphqlSchema extends Context.Service<GraphqlSchema, GraphQLSchema>()("app/graphql/GraphqlSchema") {
  static readonly layer = Layer.effect(
    GraphqlSchema,
    Effect.gen(function* () {
      const health = yield* Health
      const status = yield* IndexerStatus
      const sql = yield* SqlClient.SqlClient
      const hub = yield* SubscriptionHub
      const context = yield* Effect.context<never>()
      const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromiseWith(context)(effect)
      const chainId = (yield* status.get).chainId
      const query = (text: string, params: ReadonlyArray<unknown>) =>
        run(sql.unsafe(text, params)) as Promise<ReadonlyArray<Record<string, unknown>>>

      const direction = new GraphQLEnumType({
        name: "OrderDirection",
        values: { asc: { value: "asc" }, desc: { value: "desc" } }
      })
      const pageInfo = new GraphQLObjectType({
        name: "PageInfo",
        fields: { hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) }, endCursor: { type: GraphQLString } }
      })

      const objectTypes = new Map<string, GraphQLObjectType>()
      const loaderOf = (ctx: GraphqlContext, target: EntityDef) => {
        const existing = ctx.loaders.get(target.type)
        if (existing !== undefined) return existing
        const keyColumn = target.key[0]!
        let pending: Map<string, Array<(row: Record<string, unknown> | null) => void>> | null = null
        const flush = async () => {
          const batch = pending!
          pending = null
          const select = Object.entries(target.fields)
            .map(([n, f]) => `t.${columnOf(n, f)} AS "${n}"`)
            .join(", ")
          const rows = await query(
            `SELECT ${select}, t.${keyColumn}::text AS "rowKey" FROM ${target.source}
            WHERE t.chain_id = $1 AND t.${keyColumn} = ANY($2::text[])`,
            [chainId, [...batch.keys()]]
          )
          const byKey = new Map(rows.map((r) => [r.rowKey as string, r]))
          for (const [key, waiters] of batch) for (const w of waiters) w(byKey.get(key) ?? null)
        }
        const load = (key: string) =>
          new Promise<Record<string, unknown> | null>((resolve, reject) => {
            if (pending === null) {
              pending = new Map()
              setImmediate(() => flush().catch(reject))
            }
            const waiters = pending.get(key) ?? []
            waiters.push(resolve)
            pending.set(key, waiters)
          })
        ctx.loaders.set(target.type, load)
        return load
      }

      for (const entity of entities) {
        objectTypes.set(
          entity.type,
          new GraphQLObjectType({
            name: entity.type,
            description: entity.description,
            fields: () => ({
              ...Object.fromEntries(
                Object.entries(entity.fields).map(([name, f]) => [
                  name,
                  {
                    type: scalarOf[f.kind],
                    ...(f.description === undefined ? {} : { description: f.description })
                  }
                ])
              ),
              ...Object.fromEntries(
                Object.entries(entity.relations ?? {}).map(([name, rel]) => {
                  const target = entityByType.get(rel.entity)!
                  return [
                    name,
                    {
                      type: objectTypes.get(rel.entity)!,
                      resolve: (row: Record<string, unknown>, _: unknown, ctx: GraphqlContext) =>
                        row[rel.from] == null ? null : loaderOf(ctx, target)(String(row[rel.from]))
                    }
                  ]
                })
              )
            })
          })
        )
      }

      const filterTypes = new Map<string, GraphQLInputObjectType>()
      for (const entity of entities) {
        const filter: GraphQLInputObjectType = new GraphQLInputObjectType({
          name: `${entity.type}Filter`,
          fields: () => {
            const fields: GraphQLInputFieldConfigMap = {}
            for (const [name, f] of Object.entries(entity.fields)) {
              for (const op of operators) {
                if (op === "_contains" && f.kind !== "String" && f.kind !== "Address") continue
                fields[`${name}${op}`] = {
                  type: op === "_in" ? new GraphQLList(new GraphQLNonNull(scalarOf[f.kind])) : scalarOf[f.kind]
                }
              }
            }
            fields.AND = { type: new GraphQLList(new GraphQLNonNull(filter)) }
            fields.OR = { type: new GraphQLList(new GraphQLNonNull(filter)) }
            return fields
          }
        })
        filterTypes.set(entity.type, filter)
      }

      const listField = (entity: EntityDef) => ({
        type: new GraphQLNonNull(
          new GraphQLObjectType({
            name: `${entity.type}Page`,
            fields: {
              items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectTypes.get(entity.type)!))) },
              pageInfo: { type: new GraphQLNonNull(pageInfo) }
            }
          })
        ),
        description: entity.description,
        args: {
          where: { type: filterTypes.get(entity.type)! },
          orderBy: {
            type: new GraphQLEnumType({
              name: `${entity.type}OrderBy`,
              values: Object.fromEntries(Object.keys(entity.fields).map((f) => [f, { value: f }]))
            })
          },
          orderDirection: { type: direction },
          first: { type: GraphQLInt, description: "Page size: default 50, at most 1,000" },
          after: { type: GraphQLString, description: "endCursor of the previous page" }
        },
        resolve: async (_: unknown, args: ListArgs) => {
          const built = buildList(entity, chainId, args)
          const rows = await query(built.text, built.params)
          const items = rows.slice(0, built.first)
          const last = items[items.length - 1]
          return {
            items,
            pageInfo: {
              hasNextPage: rows.length > built.first,
              endCursor: last === undefined ? null : cursorOf(last, built.sortCount)
            }
          }
        }
      })

      const single = (type: string, arg: string) => ({
        type: objectTypes.get(type)!,
        args: { [arg]: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: (_: unknown, args: Record<string, string>, ctx: GraphqlContext) =>
          loaderOf(ctx, entityByType.get(type)!)(args[arg]!.toLowerCase())
      })

      const Meta = new GraphQLObjectType({
        name: "Meta",
        description: "Status of the indexer service",
        fields: {
          version: { type: new GraphQLNonNull(GraphQLString) },
          database: {
            type: new GraphQLNonNull(GraphQLString),
            description: "up | down",
            resolve: () =>
              run(
                health.report("indexer").pipe(
                  Effect.as("up"),
                  Effect.catch(() => Effect.succeed("down"))
                )
              )
          },
          chainId: { type: new GraphQLNonNull(GraphQLInt) },
          phase: {
            type: new GraphQLNonNull(GraphQLString),
            description: "starting | waiting-for-lock | backfilling | following | retrying | stopped"
          },
          ready: { type: new GraphQLNonNull(GraphQLBoolean), description: "caught up with the head" },
          lastIndexedBlock: { type: BigIntScalar },
          head: { type: BigIntScalar },
          lagBlocks: { type: BigIntScalar },
          lagSeconds: { type: GraphQLInt },
          eventsPerSecond: { type: new GraphQLNonNull(GraphQLInt) },
          reorgs: { type: new GraphQLNonNull(GraphQLInt) },
          subscriptionUpstreams: {
            type: new GraphQLNonNull(GraphQLInt),
            description:
              "Live upstream readers of GraphQL subscriptions: one per distinct topic (identical subscriptions share one)",
            resolve: () => hub.upstreams()
          },
          skippedLaunches: {
            type: new GraphQLNonNull(GraphQLInt),
            description: "Ignited events that are not canonical (not listed as launches)",
            // A count over a table per occurrence: priced as a page of rows (src/indexer/graphql/Limits.ts).
            extensions: { cost: 50 },
            resolve: async () =>
              Number(
                (await query(`SELECT count(*)::int AS n FROM skipped_launches WHERE chain_id = $1`, [chainId]))[0]!.n
              )
          }
        }
      })

      /** Every row of `entity` matching `where`, in key order, page by page (committed rows only: read after commit). */
      const readAll = async (type: string, where: Record<string, unknown>) => {
        const entity = entityByType.get(type)!
        const out: Array<Record<string, unknown>> = []
        let after: string | null = null
        for (;;) {
          const built = buildList(entity, chainId, { where, first: 1000, after })
          const rows = await query(built.text, built.params)
          out.push(...rows.slice(0, built.first))
          if (rows.length <= built.first) return out
          after = cursorOf(rows[built.first - 1]!, built.sortCount)
        }
      }
      const inRange = (change: { fromBlock: bigint; toBlock: bigint }) => ({
        blockNumber_gte: change.fromBlock.toString(),
        blockNumber_lte: change.toBlock.toString()
      })
      const touches = (pools: ReadonlyArray<string>, pool: string) => pools.some((p) => p.toLowerCase() === pool)
      const poolArg = { pool: { type: new GraphQLNonNull(GraphQLString), description: "Pool address" } }
      const passThrough = (row: unknown) => row

      const Subscription = new GraphQLObjectType({
        name: "Subscription",
        description:
          "Live events over graphql-ws (protocol graphql-transport-ws) at /v1/graphql. An event is sent only " +
          "after the indexer committed the block range and is read back from the database, so rows of blocks removed " +
          "by a reorg are not delivered. Identical subscriptions share one upstream reader. The query depth and cost " +
          "limits apply to subscription documents.",
        fields: {
          launches: {
            type: new GraphQLNonNull(objectTypes.get("Launch")!),
            description: "Each new canonical launch (one event per launch), as the Launch rows of `launches`",
            subscribe: () =>
              hub.topic("launches", (change) =>
                change.kind !== "batch" || change.launches.length === 0
                  ? Promise.resolve([])
                  : readAll("Launch", { ...inRange(change), token_in: change.launches.map((t) => t.toLowerCase()) })
              ),
            resolve: passThrough
          },
          swaps: {
            type: new GraphQLNonNull(objectTypes.get("Swap")!),
            description: "Each new swap of `pool` (one event per swap), as the Swap rows of `swaps`",
            args: poolArg,
            subscribe: (_: unknown, args: { pool: string }) => {
              const pool = args.pool.toLowerCase()
              return hub.topic(`swaps:${pool}`, (change) =>
                change.kind !== "batch" || !touches(change.pools, pool)
                  ? Promise.resolve([])
                  : readAll("Swap", { ...inRange(change), pool })
              )
            },
            resolve: passThrough
          },
          poolUpdated: {
            type: new GraphQLNonNull(objectTypes.get("Pool")!),
            description: "The state of `pool` after each committed batch or reorg that changed it",
            args: poolArg,
            subscribe: (_: unknown, args: { pool: string }) => {
              const pool = args.pool.toLowerCase()
              return hub.topic(`poolUpdated:${pool}`, (change) =>
                !touches(change.pools, pool) ? Promise.resolve([]) : readAll("Pool", { address: pool })
              )
            },
            resolve: passThrough
          }
        }
      })

      return new GraphQLSchema({
        subscription: Subscription,
        query: new GraphQLObjectType({
          name: "Query",
          fields: {
            _meta: {
              type: new GraphQLNonNull(Meta),
              resolve: () => run(Effect.map(status.get, (s) => ({ ...s, version })))
            },
            token: single("Token", "address"),
            pool: single("Pool", "address"),
            ...Object.fromEntries(entities.map((e) => [e.list, listField(e)]))
          }
        })
      })
    })
  ).pipe(Layer.provide(SubscriptionHub.layer))
}
