-- Badges earned from activity (the catalog is code: src/client-api/social/badges/BadgeCatalog.ts). Keyed by wallet (lower-case, like
-- the indexed tables) because on-chain activity counts before a wallet ever signs in. Once earned, a badge is kept.
CREATE TABLE wallet_badges (
  wallet     text NOT NULL,
  badge_id   text NOT NULL,
  earned_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (wallet, badge_id)
);
CREATE INDEX wallet_badges_badge ON wallet_badges (badge_id, earned_at DESC);

-- Precomputed competition leaderboards: the top entries of each board for each period, replaced as a whole by
-- each refresh (one transaction), so readers always see one consistent computation.
CREATE TABLE leaderboard_entries (
  period       text NOT NULL CHECK (period IN ('week', 'all')),
  board        text NOT NULL CHECK (board IN ('volume', 'fuelGiven', 'yaps')),
  rank         integer NOT NULL CHECK (rank >= 1),
  wallet       text NOT NULL,
  value        numeric NOT NULL,
  PRIMARY KEY (period, board, rank)
);

CREATE TABLE leaderboard_refreshes (
  period        text PRIMARY KEY,
  starts_at     timestamptz,
  ends_at       timestamptz,
  computed_at   timestamptz NOT NULL,
  indexed_block bigint
);

-- Share links: one short code per (user, token); visits counted by the redirect route.
CREATE TABLE share_links (
  id          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  code        text PRIMARY KEY CHECK (code ~ '^[0-9A-Za-z]{8}$'),
  user_id     uuid NOT NULL REFERENCES users (id),
  chain_id    integer NOT NULL,
  token       text NOT NULL,
  visits      bigint NOT NULL DEFAULT 0,
  last_visit_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, chain_id, token)
);

-- OAuth tokens of a linked third-party social account, encrypted with AES-256-GCM (src/client-api/social/xauth/XAuthCipher.ts):
-- ciphertext, 12-byte IV and 16-byte tag per secret; the user id and provider are the additional authenticated data,
-- so a row copied onto another user does not decrypt. The key is never stored in the database.
CREATE TABLE linked_social_accounts (
  user_id              uuid NOT NULL REFERENCES users (id),
  provider             text NOT NULL CHECK (provider IN ('x')),
  account_id           text,
  username             text,
  scope                text,
  access_token_enc     bytea NOT NULL,
  refresh_token_enc    bytea,
  key_id               text NOT NULL,
  expires_at           timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, provider)
);
