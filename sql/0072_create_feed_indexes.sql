-- Feeds and leaderboards name the user of an indexed (lower-case) address through users_wallet_lower (0030).
-- Feed pages read each source in the feed order (time, then sequence, newest first) from these indexes.
CREATE INDEX launches_feed ON launches (chain_id, block_timestamp DESC, block_number DESC, log_index DESC);
CREATE INDEX fuel_events_feed ON fuel_events (chain_id, block_timestamp DESC, block_number DESC, log_index DESC) WHERE kind = 'given';
CREATE INDEX share_links_feed ON share_links (chain_id, created_at DESC, id DESC);
