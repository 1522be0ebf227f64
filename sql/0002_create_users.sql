-- Users: one row per person, found by wallet (wallet sign-in) or by identity-provider DID (IdP login).
-- A wallet-created user gets the synthetic DID `wallet:<checksummed address>`.
CREATE TABLE users (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  idp_did         text NOT NULL UNIQUE,
  -- EIP-55 checksummed; NULL for an IdP user that has no wallet yet. UNIQUE allows many NULLs.
  wallet_address  text UNIQUE CHECK (wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  -- Stored lower-case (the rules are [a-z0-9_], 3-20), so the unique constraint is case-insensitive.
  username        text UNIQUE CHECK (username ~ '^[a-z0-9_]{3,20}$'),
  name            text CHECK (char_length(name) BETWEEN 1 AND 50),
  bio             text CHECK (char_length(bio) <= 280),
  image           text,
  is_admin        boolean NOT NULL DEFAULT false,
  banned_at       timestamptz,
  hidden_at       timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- One row per moderation action (ban, unban, grant/revoke admin, hide/show), written in the same transaction.
CREATE TABLE user_admin_actions (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_id        uuid NOT NULL REFERENCES users (id),
  user_id         uuid NOT NULL REFERENCES users (id),
  action          text NOT NULL CHECK (action IN ('ban', 'unban', 'grant_admin', 'revoke_admin', 'hide', 'unhide')),
  reason          text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_admin_actions_user_id_idx ON user_admin_actions (user_id, created_at DESC);
