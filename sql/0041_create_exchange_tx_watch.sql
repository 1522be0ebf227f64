-- Unknown transaction hashes asked about on GET /api/v1/status, with when they were first asked about: such a hash is
-- `pending` until EXCHANGE_TX_PENDING_TIMEOUT_SECONDS later, then not found (src/exchange-api/tokens/TxStatus.ts).
CREATE TABLE exchange_tx_watch (
  chain_id       integer NOT NULL,
  tx_hash        text NOT NULL,
  first_seen_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash)
);
CREATE INDEX exchange_tx_watch_seen ON exchange_tx_watch (first_seen_at);
