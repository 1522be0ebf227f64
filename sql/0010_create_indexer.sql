-- Indexed chain data. Read by the exchange API (pools, ticks, positions, swaps, candles, tokens, stats), the client API
-- (launches, holders, fuel, graduation, feeds), the quote engine (pool_states + ticks), search (tokens, pools) and GraphQL.
--
-- Two kinds of tables (see src/indexer/store/Derive.ts for why):
--   * event tables: append-only truth, one row per log, primary key (chain_id, block_number, log_index). A reorg
--     deletes the rows above the common ancestor and nothing else.
--   * derived tables (balances, pool state, ticks, positions, candles, counters): folded forward from each batch's
--     events in the batch's transaction; on a reorg recomputed for the touched keys from the remaining events.
-- uint256/int256 chain values are numeric(78,0) (strings in TypeScript); addresses and hashes are lowercase 0x-hex text.

-- ---------------------------------------------------------------------------------------------------------- progress

-- The last block whose effects are committed, per chain. Written in the same transaction as the rows of that batch.
CREATE TABLE indexer_checkpoints (
  chain_id        integer PRIMARY KEY,
  block_number    bigint NOT NULL,
  block_hash      text NOT NULL,
  block_timestamp timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Hashes of the indexed blocks that are not final yet (above head - FINALITY_DEPTH), to find the common ancestor.
CREATE TABLE indexer_blocks (
  chain_id     integer NOT NULL,
  number       bigint NOT NULL,
  hash         text NOT NULL,
  parent_hash  text NOT NULL,
  timestamp    timestamptz NOT NULL,
  PRIMARY KEY (chain_id, number)
);

-- ---------------------------------------------------------------------------------------------------------- launchpad events

-- Canonical launches (FireLaunch.Ignited with the registry's canonical configuration, either token order).
CREATE TABLE launches (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  token            text NOT NULL,
  creator          text NOT NULL,
  pool             text NOT NULL,
  fee              integer NOT NULL,
  tick_lower       integer NOT NULL,
  tick_upper       integer NOT NULL,
  sqrt_price_x96   numeric(78,0) NOT NULL,
  token_is_token0  boolean NOT NULL,
  position_id      numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index),
  UNIQUE (chain_id, token)
);
CREATE INDEX launches_creator ON launches (chain_id, creator);
CREATE INDEX launches_time ON launches (chain_id, block_timestamp DESC);

-- Ignited events that are not canonical: counted, never listed.
CREATE TABLE skipped_launches (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  token            text NOT NULL,
  creator          text NOT NULL,
  pool             text NOT NULL,
  reason           text NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);

-- Graduation steps: FireLaunch.GraduationConditionRecorded ('condition_recorded') and FireGraduator.Graduated.
CREATE TABLE graduation_events (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  token            text NOT NULL,
  step             text NOT NULL CHECK (step IN ('condition_recorded', 'graduated')),
  at               timestamptz NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX graduation_events_token ON graduation_events (chain_id, token);

-- FuelVault: FuelGiven ('given', sender = giver) and FuelWithdrawn ('withdrawn', sender null).
CREATE TABLE fuel_events (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('given', 'withdrawn')),
  token            text NOT NULL,
  sender           text,
  creator          text NOT NULL,
  amount           numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX fuel_events_token ON fuel_events (chain_id, token, block_number DESC);
CREATE INDEX fuel_events_sender ON fuel_events (chain_id, sender, block_number DESC);
CREATE INDEX fuel_events_creator ON fuel_events (chain_id, creator, block_number DESC);

-- FireStream.FeesClaimed (amounts in pool token order).
CREATE TABLE fee_claims (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  token            text NOT NULL,
  recipient        text NOT NULL,
  amount0          numeric(78,0) NOT NULL,
  amount1          numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX fee_claims_token ON fee_claims (chain_id, token);

-- FireRegistry configuration events, kept as name + decoded arguments (big integers as strings).
CREATE TABLE registry_events (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  name             text NOT NULL,
  args             jsonb NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);

-- ERC-20 Transfer of launched tokens.
CREATE TABLE token_transfers (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  token            text NOT NULL,
  from_address     text NOT NULL,
  to_address       text NOT NULL,
  value            numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX token_transfers_token ON token_transfers (chain_id, token, block_number DESC);
CREATE INDEX token_transfers_from ON token_transfers (chain_id, from_address, token);
CREATE INDEX token_transfers_to ON token_transfers (chain_id, to_address, token);

-- ---------------------------------------------------------------------------------------------------------- pools

-- Indexed Uniswap v3 pools: pools of launched tokens and of the configured base pairs (PoolCreated, or Ignited when the
-- pool existed before). Append-only like an event table: a reorg deletes pools created above the ancestor.
CREATE TABLE pools (
  chain_id         integer NOT NULL,
  address          text NOT NULL,
  token0           text NOT NULL,
  token1           text NOT NULL,
  fee              integer NOT NULL,
  tick_spacing     integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  PRIMARY KEY (chain_id, address)
);
CREATE INDEX pools_token0 ON pools (chain_id, token0);
CREATE INDEX pools_token1 ON pools (chain_id, token1);

CREATE TABLE pool_initializations (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  pool             text NOT NULL,
  sqrt_price_x96   numeric(78,0) NOT NULL,
  tick             integer NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX pool_initializations_pool ON pool_initializations (chain_id, pool);

-- Swap, with what the projection knew at that log: human price (token1 per token0), USD prices of both tokens (null
-- without a path to the stable pair), the USD size of the trade, and the pool's reserves and TVL after it.
CREATE TABLE swaps (
  chain_id           integer NOT NULL,
  block_number       bigint NOT NULL,
  log_index          integer NOT NULL,
  tx_hash            text NOT NULL,
  block_timestamp    timestamptz NOT NULL,
  pool               text NOT NULL,
  sender             text NOT NULL,
  recipient          text NOT NULL,
  amount0            numeric(78,0) NOT NULL,
  amount1            numeric(78,0) NOT NULL,
  sqrt_price_x96     numeric(78,0) NOT NULL,
  liquidity          numeric(78,0) NOT NULL,
  tick               integer NOT NULL,
  price              double precision NOT NULL,
  token0_price_usd   double precision,
  token1_price_usd   double precision,
  amount_usd         double precision,
  reserve0           numeric(78,0) NOT NULL,
  reserve1           numeric(78,0) NOT NULL,
  tvl_usd            double precision,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX swaps_pool ON swaps (chain_id, pool, block_number DESC, log_index DESC);
CREATE INDEX swaps_recipient ON swaps (chain_id, recipient, block_number DESC);
CREATE INDEX swaps_tx ON swaps (chain_id, tx_hash);

CREATE TABLE mints (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  pool             text NOT NULL,
  sender           text NOT NULL,
  owner            text NOT NULL,
  tick_lower       integer NOT NULL,
  tick_upper       integer NOT NULL,
  amount           numeric(78,0) NOT NULL,
  amount0          numeric(78,0) NOT NULL,
  amount1          numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX mints_pool ON mints (chain_id, pool, block_number DESC);

CREATE TABLE burns (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  pool             text NOT NULL,
  owner            text NOT NULL,
  tick_lower       integer NOT NULL,
  tick_upper       integer NOT NULL,
  amount           numeric(78,0) NOT NULL,
  amount0          numeric(78,0) NOT NULL,
  amount1          numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX burns_pool ON burns (chain_id, pool, block_number DESC);

-- Pool Collect (tokens leaving the pool to a position owner).
CREATE TABLE collects (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  pool             text NOT NULL,
  owner            text NOT NULL,
  recipient        text NOT NULL,
  tick_lower       integer NOT NULL,
  tick_upper       integer NOT NULL,
  amount0          numeric(78,0) NOT NULL,
  amount1          numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX collects_pool ON collects (chain_id, pool, block_number DESC);

-- NonfungiblePositionManager events of positions in indexed pools: 'increase' (with the pool and ticks of the pool
-- Mint it belongs to), 'decrease', 'collect', 'transfer' (ERC-721; from 0x0 = mint).
CREATE TABLE position_events (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  token_id         numeric(78,0) NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('increase', 'decrease', 'collect', 'transfer')),
  pool             text NOT NULL,
  tick_lower       integer,
  tick_upper       integer,
  liquidity        numeric(78,0),
  amount0          numeric(78,0),
  amount1          numeric(78,0),
  from_address     text,
  to_address       text,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX position_events_token_id ON position_events (chain_id, token_id);
CREATE INDEX position_events_pool ON position_events (chain_id, pool);

-- ---------------------------------------------------------------------------------------------------------- derived

-- Tokens: launched tokens (first_block = launch block) and the configured base tokens (first_block = 0). Metadata read
-- from the chain once; counters and launch status folded from the event tables.
CREATE TABLE tokens (
  chain_id                integer NOT NULL,
  address                 text NOT NULL,
  name                    text NOT NULL,
  symbol                  text NOT NULL,
  decimals                integer NOT NULL,
  total_supply            numeric(78,0) NOT NULL,
  is_launch               boolean NOT NULL,
  first_block             bigint NOT NULL,
  holder_count            integer NOT NULL DEFAULT 0,
  transfer_count          bigint NOT NULL DEFAULT 0,
  price_usd               double precision,
  fuel_count              integer NOT NULL DEFAULT 0,
  fuel_given              numeric(78,0) NOT NULL DEFAULT 0,
  fuel_withdrawn          numeric(78,0) NOT NULL DEFAULT 0,
  graduation_condition_at timestamptz,
  graduated_at            timestamptz,
  PRIMARY KEY (chain_id, address)
);
CREATE INDEX tokens_symbol ON tokens (chain_id, lower(symbol));

-- Holders of launched tokens; a holder whose balance returns to zero has no row (holder_count = rows).
CREATE TABLE token_balances (
  chain_id  integer NOT NULL,
  token     text NOT NULL,
  holder    text NOT NULL,
  balance   numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, token, holder)
);
CREATE INDEX token_balances_holder ON token_balances (chain_id, holder);
CREATE INDEX token_balances_rank ON token_balances (chain_id, token, balance DESC);

-- Current state of each indexed pool (what the quote engine loads): slot0, in-range liquidity, reserves, counters.
CREATE TABLE pool_states (
  chain_id        integer NOT NULL,
  pool            text NOT NULL,
  sqrt_price_x96  numeric(78,0),
  tick            integer,
  liquidity       numeric(78,0) NOT NULL DEFAULT 0,
  reserve0        numeric(78,0) NOT NULL DEFAULT 0,
  reserve1        numeric(78,0) NOT NULL DEFAULT 0,
  volume0         numeric(78,0) NOT NULL DEFAULT 0,
  volume1         numeric(78,0) NOT NULL DEFAULT 0,
  fees0           numeric(78,0) NOT NULL DEFAULT 0,
  fees1           numeric(78,0) NOT NULL DEFAULT 0,
  volume_usd      numeric NOT NULL DEFAULT 0,
  swap_count      bigint NOT NULL DEFAULT 0,
  mint_count      bigint NOT NULL DEFAULT 0,
  burn_count      bigint NOT NULL DEFAULT 0,
  price           double precision,
  tvl_usd         double precision,
  last_block      bigint NOT NULL,
  PRIMARY KEY (chain_id, pool)
);

-- Initialized ticks (liquidity_gross > 0) with their liquidity_net, as UniswapV3Pool.ticks() reports them.
CREATE TABLE ticks (
  chain_id         integer NOT NULL,
  pool             text NOT NULL,
  tick             integer NOT NULL,
  liquidity_gross  numeric(78,0) NOT NULL,
  liquidity_net    numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, pool, tick)
);

-- Pool-level positions (owner = the minter, the position manager for NFT positions), as UniswapV3Pool.positions().
CREATE TABLE positions (
  chain_id    integer NOT NULL,
  pool        text NOT NULL,
  owner       text NOT NULL,
  tick_lower  integer NOT NULL,
  tick_upper  integer NOT NULL,
  liquidity   numeric(78,0) NOT NULL,
  deposited0  numeric(78,0) NOT NULL,
  deposited1  numeric(78,0) NOT NULL,
  withdrawn0  numeric(78,0) NOT NULL,
  withdrawn1  numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, pool, owner, tick_lower, tick_upper)
);
CREATE INDEX positions_owner ON positions (chain_id, owner);

-- Wallet positions (position manager NFTs) in indexed pools.
CREATE TABLE nft_positions (
  chain_id    integer NOT NULL,
  token_id    numeric(78,0) NOT NULL,
  pool        text NOT NULL,
  owner       text NOT NULL,
  tick_lower  integer NOT NULL,
  tick_upper  integer NOT NULL,
  liquidity   numeric(78,0) NOT NULL,
  deposited0  numeric(78,0) NOT NULL,
  deposited1  numeric(78,0) NOT NULL,
  withdrawn0  numeric(78,0) NOT NULL,
  withdrawn1  numeric(78,0) NOT NULL,
  collected0  numeric(78,0) NOT NULL,
  collected1  numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, token_id)
);
CREATE INDEX nft_positions_owner ON nft_positions (chain_id, owner);
CREATE INDEX nft_positions_pool ON nft_positions (chain_id, pool);

-- Hourly ('1h') and daily ('1d') candles per pool: price = token1 per token0 (human units), TVL after the bucket's
-- last swap. Buckets exist only where swaps happened. USD sums are numeric so that they do not depend on batch boundaries.
CREATE TABLE pool_candles (
  chain_id      integer NOT NULL,
  pool          text NOT NULL,
  period        text NOT NULL CHECK (period IN ('1h', '1d')),
  bucket_start  timestamptz NOT NULL,
  open          double precision NOT NULL,
  high          double precision NOT NULL,
  low           double precision NOT NULL,
  close         double precision NOT NULL,
  volume0       numeric(78,0) NOT NULL,
  volume1       numeric(78,0) NOT NULL,
  volume_usd    numeric,
  tvl_usd       double precision,
  swap_count    integer NOT NULL,
  PRIMARY KEY (chain_id, pool, period, bucket_start)
);

-- The same per token, priced in USD (null when no path to the stable pair), over all its indexed pools.
CREATE TABLE token_candles (
  chain_id      integer NOT NULL,
  token         text NOT NULL,
  period        text NOT NULL CHECK (period IN ('1h', '1d')),
  bucket_start  timestamptz NOT NULL,
  open          double precision,
  high          double precision,
  low           double precision,
  close         double precision,
  volume        numeric(78,0) NOT NULL,
  volume_usd    numeric,
  swap_count    integer NOT NULL,
  PRIMARY KEY (chain_id, token, period, bucket_start)
);
