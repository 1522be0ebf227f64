-- Feeds and leaderboards name the user of an indexed (lower-case) address through users_wallet_lower (0030).
-- Feed and tip streams read the newest launches and FuelGiven events across all tokens.
CREATE INDEX fuel_events_time ON fuel_events (chain_id, block_timestamp DESC, log_index DESC) WHERE kind = 'given';
CREATE INDEX share_links_created ON share_links (created_at DESC, code DESC);
