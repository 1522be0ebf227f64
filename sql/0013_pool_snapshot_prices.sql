-- What a tracked pool's snapshot was worth (src/indexer/bootstrap/Bootstrap.ts): its tokens' USD prices from the market
-- at the snapshot's block and its TVL, as a swap row carries them, so that the pool's tvl_usd and its tokens' price_usd
-- exist before its first swap after the start block (Derive.ts reads the latest of the pool's events and snapshot).
ALTER TABLE pool_snapshots ADD COLUMN token0_price_usd double precision;
ALTER TABLE pool_snapshots ADD COLUMN token1_price_usd double precision;
ALTER TABLE pool_snapshots ADD COLUMN tvl_usd double precision;
