import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Reads of indexed token data (sql/0010_create_indexer.sql: tokens, launches, pool_states, token_balances, swaps,
 * fuel_events, token_candles) joined with the listing tables. Addresses are lowercase; numerics come back as text.
 */

export const TokenRow = Schema.Struct({
  chainId: Schema.Int,
  address: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Int,
  totalSupply: Schema.String,
  holderCount: Schema.Int,
  priceUsd: Schema.NullOr(Schema.Number),
  fuelCount: Schema.Int,
  fuelGiven: Schema.String,
  fuelWithdrawn: Schema.String,
  graduationConditionAt: Schema.NullOr(Schema.Date),
  graduatedAt: Schema.NullOr(Schema.Date),
  creator: Schema.String,
  pool: Schema.String,
  fee: Schema.Int,
  tokenIsToken0: Schema.Boolean,
  launchedAt: Schema.Date,
  launchTxHash: Schema.String,
  launchBlock: Schema.String,
  poolPrice: Schema.NullOr(Schema.Number),
  tvlUsd: Schema.NullOr(Schema.Number),
  swapCount: Schema.Int,
  volume24hUsd: Schema.Number,
  hidden: Schema.Boolean
})
export type TokenRow = typeof TokenRow.Type

const BalanceRow = Schema.Struct({ holder: Schema.String, balance: Schema.String })
const BucketRow = Schema.Struct({
  bucketStart: Schema.Date,
  buys: Schema.Int,
  buyers: Schema.Int,
  newBuyers: Schema.Int,
  cumulativeBuyers: Schema.Int,
  amount: Schema.String
})
const FuelRow = Schema.Struct({
  kind: Schema.Literals(["given", "withdrawn"]),
  sender: Schema.NullOr(Schema.String),
  creator: Schema.String,
  amount: Schema.String,
  txHash: Schema.String,
  blockNumber: Schema.String,
  logIndex: Schema.Int,
  blockTimestamp: Schema.Date
})
const SwapRow = Schema.Struct({
  amount0: Schema.String,
  amount1: Schema.String,
  amountUsd: Schema.NullOr(Schema.Number)
})
const ImageRow = Schema.Struct({ tokenAddress: Schema.String, image: Schema.NullOr(Schema.String) })

export type BalanceRow = typeof BalanceRow.Type
export type BucketRow = typeof BucketRow.Type
export type FuelRow = typeof FuelRow.Type
export type SwapRow = typeof SwapRow.Type

const decode = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) => query.pipe(Effect.flatMap(rows), Effect.orDie)
}

export class TokensRepo extends Context.Service<
  TokensRepo,
  {
    /** A launched (canonical, indexed) token with its launch, pool state and hidden flag. */
    readonly find: (chainId: number, token: string) => Effect.Effect<Option.Option<TokenRow>>
    /** Holders by balance (desc, then address desc), after `after` (keyset), excluding `exclude`. */
    readonly holders: (input: {
      readonly chainId: number
      readonly token: string
      readonly exclude: ReadonlyArray<string>
      readonly after: { readonly balance: string; readonly holder: string } | undefined
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<BalanceRow>>
    readonly buyerBuckets: (input: {
      readonly chainId: number
      readonly token: string
      readonly bucket: "1h" | "1d"
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<BucketRow>>
    readonly fuels: (input: {
      readonly chainId: number
      readonly token: string
      readonly before: { readonly blockNumber: string; readonly logIndex: number } | undefined
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<FuelRow>>
    readonly balanceOf: (chainId: number, token: string, holder: string) => Effect.Effect<string>
    /** Swaps in `pool` whose recipient is `wallet`, oldest first (the position's trade history). */
    readonly swapsTo: (chainId: number, pool: string, wallet: string) => Effect.Effect<ReadonlyArray<SwapRow>>
    /** Images of visible (not hidden) listings among `tokens`. */
    readonly images: (
      chainId: number,
      tokens: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<typeof ImageRow.Type>>
  }
>()("app/tokens/TokensRepo") {
  static readonly layer = Layer.effect(
    TokensRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const tokenRows = decode(TokenRow)

      return TokensRepo.of({
        find: (chainId, token) =>
          tokenRows(sql`
            SELECT t.chain_id, t.address, t.name, t.symbol, t.decimals, t.total_supply::text AS total_supply,
              t.holder_count, t.price_usd, t.fuel_count, t.fuel_given::text AS fuel_given,
              t.fuel_withdrawn::text AS fuel_withdrawn, t.graduation_condition_at, t.graduated_at,
              l.creator, l.pool, l.fee, l.token_is_token0, l.block_timestamp AS launched_at, l.tx_hash AS launch_tx_hash,
              l.block_number::text AS launch_block, ps.price AS pool_price, ps.tvl_usd,
              coalesce(ps.swap_count, 0)::int AS swap_count,
              coalesce((SELECT sum(c.volume_usd) FROM token_candles c
                WHERE c.chain_id = t.chain_id AND c.token = t.address AND c.period = '1h'
                  AND c.bucket_start > now() - interval '24 hours'), 0)::float8 AS volume24h_usd,
              EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = t.chain_id AND h.token_address = t.address) AS hidden
            FROM tokens t
            JOIN launches l ON l.chain_id = t.chain_id AND l.token = t.address
            LEFT JOIN pool_states ps ON ps.chain_id = l.chain_id AND ps.pool = l.pool
            WHERE t.chain_id = ${chainId} AND t.address = ${token} AND t.is_launch`).pipe(
            Effect.map((rows) => Option.fromNullishOr(rows[0]))
          ),
        holders: ({ after, chainId, exclude, limit, token }) =>
          decode(BalanceRow)(sql`
            SELECT holder, balance::text AS balance FROM token_balances
            WHERE chain_id = ${chainId} AND token = ${token} AND balance > 0
              AND NOT (holder = ANY(${exclude}::text[]))
              ${after === undefined ? sql`` : sql`AND (balance, holder) < (${after.balance}::numeric, ${after.holder})`}
            -- qualified: a bare "balance" would sort by the text alias above
            ORDER BY token_balances.balance DESC, token_balances.holder DESC
            LIMIT ${limit}`),
        buyerBuckets: ({ bucket, chainId, limit, token }) =>
          decode(BucketRow)(sql`
            WITH buys AS (
              SELECT s.recipient AS buyer, s.block_timestamp AS at,
                -(CASE WHEN l.token_is_token0 THEN s.amount0 ELSE s.amount1 END) AS amount
              FROM launches l JOIN swaps s ON s.chain_id = l.chain_id AND s.pool = l.pool
              WHERE l.chain_id = ${chainId} AND l.token = ${token}
                AND (CASE WHEN l.token_is_token0 THEN s.amount0 ELSE s.amount1 END) < 0
            ), firsts AS (
              SELECT buyer, min(at) AS first_at FROM buys GROUP BY buyer
            ), buckets AS (
              SELECT date_bin(${bucket === "1h" ? "1 hour" : "1 day"}::interval, b.at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket_start,
                count(*)::int AS buys, count(DISTINCT b.buyer)::int AS buyers,
                count(DISTINCT b.buyer) FILTER (WHERE b.at = f.first_at)::int AS new_buyers,
                sum(b.amount)::text AS amount
              FROM buys b JOIN firsts f USING (buyer)
              GROUP BY 1
            )
            SELECT * FROM (
              SELECT bucket_start, buys, buyers, new_buyers,
                (sum(new_buyers) OVER (ORDER BY bucket_start))::int AS cumulative_buyers, amount
              FROM buckets ORDER BY bucket_start DESC LIMIT ${limit}
            ) recent ORDER BY bucket_start`),
        fuels: ({ before, chainId, limit, token }) =>
          decode(FuelRow)(sql`
            SELECT kind, sender, creator, amount::text AS amount, tx_hash, block_number::text AS block_number, log_index,
              block_timestamp
            FROM fuel_events
            WHERE chain_id = ${chainId} AND token = ${token}
              ${before === undefined ? sql`` : sql`AND (block_number, log_index) < (${before.blockNumber}::int8, ${before.logIndex})`}
            ORDER BY fuel_events.block_number DESC, fuel_events.log_index DESC
            LIMIT ${limit}`),
        balanceOf: (chainId, token, holder) =>
          sql<{ balance: string }>`
            SELECT balance::text AS balance FROM token_balances
            WHERE chain_id = ${chainId} AND token = ${token} AND holder = ${holder}`.pipe(
            Effect.map((rows) => rows[0]?.balance ?? "0"),
            Effect.orDie
          ),
        swapsTo: (chainId, pool, wallet) =>
          decode(SwapRow)(sql`
            SELECT amount0::text AS amount0, amount1::text AS amount1, amount_usd FROM swaps
            WHERE chain_id = ${chainId} AND pool = ${pool} AND recipient = ${wallet}
            ORDER BY block_number, log_index`),
        images: (chainId, tokens) =>
          decode(ImageRow)(sql`
            SELECT m.token_address, m.image FROM token_metadata m
            WHERE m.chain_id = ${chainId} AND m.token_address = ANY(${tokens}::text[])
              AND NOT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = m.chain_id AND h.token_address = m.token_address)`)
      })
    })
  )
}
