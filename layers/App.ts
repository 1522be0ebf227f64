import { SignInIpLimitLive } from "../src/client-api/accounts/sessions/SignInIpLimitLive.ts"
import { signInLimits } from "../src/client-api/accounts/sessions/SignInLimits.ts"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { AccountServicesLive, AccountsHttpLive } from "../src/client-api/accounts/AccountsLive.ts"
import { ClientApi } from "../src/client-api/ClientApi.ts"
import { clientUnsafeRequests } from "../src/client-api/ClientUnsafeRequests.ts"
import { ClientIpLimitLive } from "../src/client-api/ClientIpLimitLive.ts"
import { AppConfig, type ServiceName } from "../src/platform/AppConfig.ts"
import { ExchangeApi } from "../src/exchange-api/ExchangeApi.ts"
import { exchangeErrorShape } from "../src/exchange-api/ExchangeError.ts"
import { ExchangeHttpLive } from "../src/exchange-api/ExchangeLive.ts"
import { ExchangeValidationLive } from "../src/exchange-api/ExchangeValidation.ts"
import { IndexerChangeFeed, IndexerChangeNotifierLive } from "../src/indexer/IndexerChangeFeed.ts"
import { PublicRateLimitLive } from "../src/exchange-api/PublicRateLimitLive.ts"
import { PartnerAuthLive } from "../src/exchange-api/quotes/PartnerAuthLive.ts"
import { QuotesHttpLive } from "../src/exchange-api/quotes/QuotesLive.ts"
import { GraphqlHttpLive } from "../src/indexer/graphql/GraphqlHttp.ts"
import { GraphqlConfig } from "../src/indexer/graphql/GraphqlConfig.ts"
import { GraphqlPoolLive, TableSizes } from "../src/indexer/graphql/GraphqlDatabase.ts"
import { GraphqlSchema } from "../src/indexer/graphql/GraphqlSchema.ts"
import { apiRoutes, defaultErrorShape, Listening, serveService } from "../src/platform/http/Serve.ts"
import { IndexerApi } from "../src/indexer/IndexerApi.ts"
import { IndexerEvents } from "../src/indexer/IndexerEvents.ts"
import { IndexerLive, sourceFromChain } from "../src/indexer/IndexerLive.ts"
import { IndexerMetricsLive } from "../src/indexer/IndexerMetrics.ts"
import { ListingsHttpLive } from "../src/client-api/listings/ListingsLive.ts"
import { ClientMcpLive, ExchangeMcpLive } from "../src/mcp/McpHttp.ts"
import { Notifications } from "../src/client-api/notifications/Notifications.ts"
import { RateLimiter } from "../src/platform/ratelimit/RateLimiter.ts"
import { MetricsListenerLive } from "../src/platform/metrics/MetricsListener.ts"
import { NotificationsHttpLive } from "../src/client-api/notifications/NotificationsLive.ts"
import { SearchApi } from "../src/search/SearchApi.ts"
import { Health } from "../src/platform/system/Health.ts"
import { ClientSystemHttp } from "../src/client-api/ClientSystemHttp.ts"
import { ExchangeSystemHttp } from "../src/exchange-api/ExchangeSystemHttp.ts"
import { IndexerSystemHttp } from "../src/indexer/IndexerSystemHttp.ts"
import { SearchSystemHttp } from "../src/search/SearchSystemHttp.ts"
import { SignatureVerifier } from "../src/client-api/accounts/sessions/SignatureVerifier.ts"
import { SocialHttpLive } from "../src/client-api/social/SocialHttpLive.ts"
import { CommentsHttpLive } from "../src/client-api/comments/CommentsLive.ts"
import { ClientCache } from "../src/client-api/ClientCache.ts"
import { ClientCacheLive } from "../src/client-api/ClientCacheLive.ts"
import { Chain } from "../src/platform/Chain.ts"
import { ChainLive } from "./Chain.ts"
import { DataDirLock } from "./DataDirLock.ts"
import { SearchHttpLive, SearchServicesLive } from "../src/search/SearchLive.ts"
import { DatabaseLive } from "./Sql.ts"

/** The routes of each service. Later features add their handler layers here. */
const clientRoutes = apiRoutes(
  ClientApi,
  Layer.mergeAll(
    ClientSystemHttp,
    AccountsHttpLive,
    SocialHttpLive,
    // Notifications, web push and the chain-event notifier of the process's chain.
    NotificationsHttpLive.pipe(Layer.provide(AccountServicesLive)),
    // Token listings, claims, launches and their moderation; claims and launches notify through Notifications.
    ListingsHttpLive.pipe(Layer.provide(Layer.mergeAll(AccountServicesLive, Notifications.layer))),
    // Comments (yaps) and engagement; replies, mentions and likes notify through Notifications.
    CommentsHttpLive,
    // Anonymous public reads answered from memory, dropped by writes and indexer commits (src/client-api/ClientCache.ts).
    ClientCacheLive
  ).pipe(Layer.provide(ClientCache.layer.pipe(Layer.provide(IndexerChangeFeed.layer))))
).pipe(
  // Per-IP limits: the sign-in routes' own (src/client-api/accounts/sessions/SignInIpLimit.ts) and every feature
  // route's (src/client-api/ClientIpLimit.ts).
  Layer.provide([SignInIpLimitLive, ClientIpLimitLive])
)
const exchangeRoutes = apiRoutes(
  ExchangeApi,
  Layer.mergeAll(ExchangeSystemHttp, ExchangeHttpLive, QuotesHttpLive)
).pipe(
  // The exchange API's own error shape for decode failures, its per-IP limit of the public routes, partner keys.
  Layer.provide([ExchangeValidationLive, PublicRateLimitLive, PartnerAuthLive])
)
const searchRoutes = apiRoutes(SearchApi, Layer.mergeAll(SearchSystemHttp, SearchHttpLive)).pipe(
  Layer.provide(SearchServicesLive)
)
/** Agent tools: `/mcp` on the client and exchange services, derived from the same APIs (src/mcp). */
const clientWithMcp = Layer.mergeAll(clientRoutes, ClientMcpLive)
const exchangeWithMcp = Layer.mergeAll(exchangeRoutes, ExchangeMcpLive)
// IndexerChangeNotifierLive forwards each commit to NOTIFY, for the exchange cache of any process.
const indexerRoutes = Layer.mergeAll(
  apiRoutes(IndexerApi, IndexerSystemHttp),
  GraphqlHttpLive,
  IndexerChangeNotifierLive,
  IndexerMetricsLive
).pipe(
  // GraphQL reads on its own small pool with a statement timeout (src/indexer/graphql/GraphqlDatabase.ts).
  Layer.provide(Layer.mergeAll(GraphqlSchema.layer, TableSizes.layer).pipe(Layer.provide(GraphqlPoolLive))),
  Layer.provide(GraphqlConfig.layer),
  // The indexer service runs the chain follower (a fiber for the life of the layer) from the process's chain.
  Layer.provide(Layer.unwrap(Effect.map(Chain, (chain) => IndexerLive(sourceFromChain(chain), chain.deployments))))
)
type RoutesOf<L extends Layer.Any> = Layer.Layer<never, Layer.Error<L>, Layer.Services<L>>
type AnyRoutes =
  | RoutesOf<typeof clientWithMcp>
  | RoutesOf<typeof exchangeWithMcp>
  | RoutesOf<typeof searchRoutes>
  | RoutesOf<typeof indexerRoutes>
const serviceRoutes: Record<ServiceName, Layer.Layer<never, Layer.Error<AnyRoutes>, Layer.Services<AnyRoutes>>> = {
  client: clientWithMcp,
  exchange: exchangeWithMcp,
  search: searchRoutes,
  indexer: indexerRoutes
}

/** The HTTP servers of the selected services, over the shared services (database, config, health). */
export const servicesLayer = (services: ReadonlyArray<ServiceName>) =>
  services
    .map((name) =>
      serveService(
        name,
        serviceRoutes[name],
        name === "exchange" ? exchangeErrorShape : defaultErrorShape,
        // Only the client API has a cookie that authenticates (src/client-api/ClientUnsafeRequests.ts).
        name === "client" ? clientUnsafeRequests : undefined
      )
    )
    .reduce((all, server) => Layer.merge(all, server), Layer.empty)
    // `/metrics` on its own address when METRICS_PORT is set: one listener per process, whatever it runs.
    .pipe(Layer.merge(MetricsListenerLive))
    // IndexerEvents is built here, outside the routes: each service's routes are built in a fork of the memo map
    // (HttpRouter.serve), so a layer first built inside one service is not shared with another. Built here, the
    // indexer publishes to, and search (src/search/SearchLive.ts) listens on, one feed.
    .pipe(Layer.provide(Layer.mergeAll(Health.layer, SignatureVerifierLive, RateLimiter.layer, IndexerEvents.layer)))

/** Wallet signatures are checked through the chain's public client: EOA, ERC-1271 and ERC-6492 alike. */
const SignatureVerifierLive = Layer.unwrap(
  Effect.map(Effect.all([Chain, Effect.orDie(signInLimits)]), ([chain, limits]) =>
    SignatureVerifier.layerWith(chain.publicClient, limits.verifyGas)
  )
)

/**
 * Infrastructure shared by every service of the process: the database (started, migrations applied) and the chain
 * (devnet started or restored, or RPC_URL connected), built side by side and both before any HTTP layer, so no port
 * opens before they are ready.
 */
export const InfrastructureLive = Layer.mergeAll(DatabaseLive, ChainLive).pipe(
  // Taken before the database and the chain start anything in DATA_DIR, released after they stopped.
  Layer.provideMerge(DataDirLock.layer),
  Layer.provideMerge(Layer.mergeAll(AppConfig.layer, Listening.layer)),
  Layer.provideMerge(NodeServices.layer)
)

export const AppLive = (services: ReadonlyArray<ServiceName>) =>
  servicesLayer(services).pipe(Layer.provideMerge(InfrastructureLive))
