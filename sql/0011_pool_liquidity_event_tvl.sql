-- The pool's TVL (USD) right after each Mint, Burn and Collect, as swaps already carry it: the pool's tvl_usd is the
-- one of its latest event of any of the four kinds, so adding or removing liquidity moves it (not only trades).
-- Null when either token has no USD path, and for rows indexed before this migration (until the pool's next event).
ALTER TABLE mints ADD COLUMN tvl_usd double precision;
ALTER TABLE burns ADD COLUMN tvl_usd double precision;
ALTER TABLE collects ADD COLUMN tvl_usd double precision;
