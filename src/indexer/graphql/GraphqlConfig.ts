import { Config, Context, Effect, Layer } from "effect"
import { burstConfig, type RateLimitRule } from "../../platform/ratelimit/RateLimitConfig.ts"

/** What keeps one caller of the indexer's GraphQL from holding the process (README, "Configuration"). */
export interface GraphqlSettings {
  /** GRAPHQL_POOL_SIZE: connections of GraphQL's own pool (sign-in, the exchange and the indexer writer keep theirs). */
  readonly poolSize: number
  /** GRAPHQL_STATEMENT_TIMEOUT_MS: PostgreSQL cancels a GraphQL statement running longer; also the execution's deadline. */
  readonly statementTimeoutMs: number
  /**
   * GRAPHQL_RATE_LIMIT per GRAPHQL_RATE_LIMIT_WINDOW_SECONDS: POSTs and graphql-ws operations per client IP, at most
   * GRAPHQL_RATE_BURST at once (production: 50; RateLimitConfig.ts `burstConfig`).
   */
  readonly rateLimit: RateLimitRule
  /** GRAPHQL_WS_MAX_SOCKETS_PER_IP: open graphql-ws sockets per client IP (IPv6 by /64). */
  readonly maxSocketsPerIp: number
  /** GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET: operations running at once on one socket. */
  readonly maxSubscriptionsPerSocket: number
  /** GRAPHQL_TABLE_SIZES_TTL_MS: how long the table sizes that price a scan are reused. */
  readonly tableSizesTtlMs: number
}

export const defaultGraphqlSettings: GraphqlSettings = {
  poolSize: 4,
  statementTimeoutMs: 5_000,
  rateLimit: { limit: 300, windowSeconds: 60 },
  maxSocketsPerIp: 10,
  maxSubscriptionsPerSocket: 20,
  tableSizesTtlMs: 60_000
}

const d = defaultGraphqlSettings
export const graphqlSettingsConfig: Config.Config<GraphqlSettings> = Config.all({
  poolSize: Config.Int("GRAPHQL_POOL_SIZE").pipe(Config.withDefault(d.poolSize)),
  statementTimeoutMs: Config.Int("GRAPHQL_STATEMENT_TIMEOUT_MS").pipe(Config.withDefault(d.statementTimeoutMs)),
  rateLimit: Config.all({
    limit: Config.Int("GRAPHQL_RATE_LIMIT").pipe(Config.withDefault(d.rateLimit.limit)),
    windowSeconds: Config.Int("GRAPHQL_RATE_LIMIT_WINDOW_SECONDS").pipe(Config.withDefault(d.rateLimit.windowSeconds))
  }).pipe(Config.flatMap(burstConfig("GRAPHQL_RATE_BURST"))),
  maxSocketsPerIp: Config.Int("GRAPHQL_WS_MAX_SOCKETS_PER_IP").pipe(Config.withDefault(d.maxSocketsPerIp)),
  maxSubscriptionsPerSocket: Config.Int("GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET").pipe(
    Config.withDefault(d.maxSubscriptionsPerSocket)
  ),
  tableSizesTtlMs: Config.Int("GRAPHQL_TABLE_SIZES_TTL_MS").pipe(Config.withDefault(d.tableSizesTtlMs))
})

export class GraphqlConfig extends Context.Service<GraphqlConfig, GraphqlSettings>()("app/graphql/GraphqlConfig") {
  static readonly layer = Layer.effect(GraphqlConfig, Effect.map(graphqlSettingsConfig, GraphqlConfig.of))
}
