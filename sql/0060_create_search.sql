-- Search (issue 11). The embedded index lives in memory and needs no table; these serve the document queries and the
-- Typesense backend.

-- Pool documents ask "which launch is this pool's" for every changed pool.
CREATE INDEX launches_pool ON launches (chain_id, pool);

-- How far an external search backend (Typesense) has been brought up to date, per chain: on start the search
-- service re-sends only the documents changed in blocks above this one.
CREATE TABLE search_sync_state (
  backend      text NOT NULL,
  chain_id     integer NOT NULL,
  block_number bigint NOT NULL,
  synced_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (backend, chain_id)
);
