import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { McpExclude } from "../../platform/McpAnnotations.ts"
import { ExchangeNotFound, ExchangeUnavailable } from "../ExchangeError.ts"
import { AddressParam, ChainIdParam, Limit, TokenId, TxHashParam } from "../Ids.ts"
import { PublicRateLimit } from "../PublicRateLimit.ts"
import {
  FireMeta,
  GlobalStats,
  IndexerStatusReport,
  Readiness,
  SwapStatus,
  TokenHistory,
  TokenOverview,
  TokenPrice,
  TrendingToken,
  WalletPositions
} from "./TokenModels.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
export const MAX_BATCH = 100
const AddressList = Schema.String.check(
  Schema.isPattern(/^0x[0-9a-fA-F]{40}(,0x[0-9a-fA-F]{40})*$/u, { message: "expected addresses separated by commas" })
).annotate({ description: `Comma-separated addresses, at most ${MAX_BATCH} (more → 400 TOO_MANY_ADDRESSES)` })

/** Tokens, stats, wallet positions, swap status and readiness (spec "Tokens, stats, positions, status, health"). */
export class TokensApi extends HttpApiGroup.make("tokens")
  .add(
    HttpApiEndpoint.get("getGlobalStats", "/api/v1/stats/global", {
      query: { chainId: Schema.optional(ChainIdParam) },
      success: GlobalStats
    }).annotateMerge(
      doc(
        "Global stats",
        "TVL, 24 h volume, fees and swaps across indexed pools, counts, and a daily series (90 days). Cached until the next indexed block."
      )
    ),
    HttpApiEndpoint.get("getIndexerStatus", "/api/v1/indexer/status", { success: IndexerStatusReport }).annotateMerge(
      doc(
        "Indexer status",
        "Chain height, last indexed block, lag in blocks and seconds, readiness, and the indexer's own phase and rate."
      )
    ),
    HttpApiEndpoint.get("listTrendingTokens", "/api/v1/tokens/trending", {
      query: { chainId: Schema.optional(ChainIdParam), limit: Schema.optional(Limit) },
      success: Schema.Struct({ items: Schema.Array(TrendingToken) })
    }).annotateMerge(
      doc(
        "Trending tokens",
        "Launched tokens with swaps in the last 24 h (chain time), ranked by score = 24 h USD volume + 3 × last-hour USD volume " +
          "(recent momentum counts four-fold), then by 24 h swap count, then newest launch; tokens hidden by an admin are left out. Limit default 50. Cached until the next indexed block."
      )
    ),
    HttpApiEndpoint.get("listBluechipTokens", "/api/v1/tokens/bluechip", {
      query: { chainId: Schema.optional(ChainIdParam) },
      success: Schema.Struct({ items: Schema.Array(TokenOverview) })
    }).annotateMerge(
      doc(
        "Verified token list",
        "The configured trusted tokens (EXCHANGE_BLUECHIP_TOKENS; default WETH and the stablecoin of the deployment)."
      )
    ),
    HttpApiEndpoint.get("getTokenPrices", "/api/v1/tokens/prices", {
      query: { chainId: Schema.optional(ChainIdParam), addresses: AddressList },
      success: Schema.Struct({ items: Schema.Array(TokenPrice), missing: Schema.Array(Schema.String) })
    }).annotateMerge(
      doc(
        "Batch token prices",
        `USD and WETH prices of up to ${MAX_BATCH} tokens; unknown addresses are listed in \`missing\`.`
      )
    ),
    HttpApiEndpoint.get("getFireMeta", "/api/v1/tokens/fire-meta", {
      query: { chainId: Schema.optional(ChainIdParam), addresses: AddressList },
      success: Schema.Struct({ items: Schema.Array(FireMeta), missing: Schema.Array(Schema.String) })
    }).annotateMerge(
      doc(
        "Launchpad metadata",
        `Creator, launch, claim state, graduation state and fuel totals of up to ${MAX_BATCH} tokens.`
      )
    ),
    HttpApiEndpoint.get("getToken", "/api/v1/tokens/:tokenId", {
      params: { tokenId: TokenId },
      success: TokenOverview,
      error: ExchangeNotFound
    }).annotateMerge(
      doc(
        "Token overview",
        "Name, symbol, decimals, price in USD and WETH, TVL, 24 h volume, market cap and FDV (separately), holders, launchpad metadata. " +
          "404 TOKEN_NOT_FOUND for a token the index does not know. Cached until the next indexed block (ETag)."
      )
    ),
    HttpApiEndpoint.get("getTokenHistory", "/api/v1/tokens/:tokenId/history", {
      params: { tokenId: TokenId },
      query: {
        timeframe: Schema.optional(Schema.Literals(["days", "hours", "minutes"])).annotate({
          description: "days (365 days back), hours (7 days, default) or minutes (the last 24 h, computed from swaps)"
        }),
        from: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))).annotate({
          description: "Unix seconds"
        }),
        to: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))).annotate({
          description: "Unix seconds; default the last indexed block's time"
        })
      },
      success: TokenHistory,
      error: ExchangeNotFound
    }).annotateMerge(
      doc(
        "Token price/TVL history",
        "USD OHLC, volume, swaps and TVL (carried forward from its pools) per bucket; at most 2000 points."
      )
    ),
    HttpApiEndpoint.get("listWalletPositions", "/api/v1/users/:owner/positions/active", {
      params: { owner: AddressParam },
      query: { chainId: Schema.optional(ChainIdParam) },
      success: WalletPositions
    }).annotateMerge(
      doc(
        "A wallet's active LP positions",
        "Position-manager NFTs with liquidity owned by the wallet in indexed pools (and positions it holds directly on a pool), with " +
          "token amounts at the current price and uncollected fees (collect() simulated by eth_call from the owner at the indexed block)."
      )
    ),
    HttpApiEndpoint.get("getSwapStatus", "/api/v1/status", {
      query: { chainId: ChainIdParam, txHash: TxHashParam },
      success: SwapStatus,
      error: [ExchangeNotFound, ExchangeUnavailable]
    }).annotateMerge(
      doc(
        "Swap execution status",
        "From the chain: `success` or `failed` once the transaction has a receipt, `pending` while it is in the mempool or unknown. " +
          "An unknown hash stays `pending` for EXCHANGE_TX_PENDING_TIMEOUT_SECONDS (default 600) after it was first asked about, then " +
          "404 TX_NOT_FOUND. Another chain id → 404 CHAIN_NOT_INDEXED. The chain's RPC rate-limited, down or slow → 503 RPC_UNAVAILABLE " +
          "with Retry-After."
      )
    ),
    HttpApiEndpoint.get("getReadiness", "/api/health/ready", { success: Readiness, error: ExchangeUnavailable })
      .annotateMerge(
        doc(
          "Readiness",
          "200 when the database answers and the indexer lags at most EXCHANGE_READY_MAX_LAG_BLOCKS blocks; else 503 NOT_READY with the " +
            "failing part. Liveness is GET /api/health."
        )
      )
      .annotate(McpExclude, true) // the load balancer's probe; agents read GET /api/v1/indexer/status
  )
  .middleware(PublicRateLimit)
  .annotateMerge(
    OpenApi.annotations({ description: "Tokens, stats, positions, status: public, limited per client IP" })
  ) {}
