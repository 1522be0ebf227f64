-- Partner keys of the quote routes (spec "Authentication": one partner per key, rate-limited per key) and the per-chain
-- token allowlist of POST /api/v1/quote. Keys are never stored: only the sha256 of the key (hex) is, so a leaked
-- table does not leak usable keys. Rows come from configuration (QUOTE_API_KEYS, QUOTE_ALLOWLIST; source 'config',
-- re-synchronised at every start) or from the admin CLI (`npm run quote-admin`; source 'admin').

CREATE TABLE quote_partner_keys (
  key_hash             text PRIMARY KEY CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  partner              text NOT NULL,
  -- The first characters of the key, to recognise it in listings without storing it.
  key_prefix           text NOT NULL,
  source               text NOT NULL CHECK (source IN ('config', 'admin')),
  -- Per-key limit; null = QUOTE_RATE_LIMIT / QUOTE_RATE_LIMIT_WINDOW_SECONDS.
  rate_limit           integer CHECK (rate_limit > 0),
  rate_window_seconds  integer CHECK (rate_window_seconds > 0),
  created_at           timestamptz NOT NULL DEFAULT now(),
  -- Revoked keys stay (audit); they answer 401 like unknown ones.
  revoked_at           timestamptz
);
CREATE INDEX quote_partner_keys_partner ON quote_partner_keys (partner);

CREATE TABLE quote_allowlist (
  chain_id   integer NOT NULL,
  address    text NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
  source     text NOT NULL CHECK (source IN ('config', 'admin')),
  added_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, address)
);
