-- Pools tracked from the start block that existed before it (src/indexer/bootstrap/): their state read over RPC at
-- one block (slot0, in-range liquidity, token balances, every initialized tick), stored as the first "event" of the
-- pool. The derived tables fold it like the events after it (src/indexer/store/Derive.ts), so a rollback recomputes
-- them from it. log_index is 2147483647: the state at the end of block_number, after any log of that block.
CREATE TABLE pool_snapshots (
  chain_id         integer NOT NULL,
  block_number     bigint NOT NULL,
  log_index        integer NOT NULL,
  tx_hash          text NOT NULL,
  block_timestamp  timestamptz NOT NULL,
  pool             text NOT NULL,
  sqrt_price_x96   numeric(78,0) NOT NULL,
  tick             integer NOT NULL,
  liquidity        numeric(78,0) NOT NULL,
  reserve0         numeric(78,0) NOT NULL,
  reserve1         numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, pool, block_number)
);

-- The initialized ticks of a snapshot, as UniswapV3Pool.ticks() reported them at the snapshot's block.
CREATE TABLE tick_snapshots (
  chain_id         integer NOT NULL,
  pool             text NOT NULL,
  block_number     bigint NOT NULL,
  tick             integer NOT NULL,
  liquidity_gross  numeric(78,0) NOT NULL,
  liquidity_net    numeric(78,0) NOT NULL,
  PRIMARY KEY (chain_id, pool, block_number, tick)
);
