-- Sign-in nonces (EIP-4361): random, single use, bound to one address, valid 5 minutes. Kept in PostgreSQL so that
-- any API process can verify a nonce another one issued. Expiry is compared with the database clock (now()).
CREATE TABLE wallet_nonces (
  nonce           text PRIMARY KEY,
  address         text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX wallet_nonces_expires_at_idx ON wallet_nonces (expires_at);

-- One row per issued JWT (id = its jti). A refresh revokes the old row and points it at the new one; a logout
-- revokes it. Every authenticated request checks the row (through a cache of at most SESSION_CACHE_MS).
CREATE TABLE sessions (
  id              uuid PRIMARY KEY,
  user_id         uuid NOT NULL REFERENCES users (id),
  method          text NOT NULL CHECK (method IN ('wallet', 'idp')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  revoked_at      timestamptz,
  replaced_by     uuid REFERENCES sessions (id)
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id) WHERE revoked_at IS NULL;

-- Wallet connection reports from clients (POST /v1/session/wallet-state), with the session when one was sent.
CREATE TABLE wallet_states (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id      uuid REFERENCES sessions (id),
  user_id         uuid REFERENCES users (id),
  status          text NOT NULL CHECK (status IN ('connected', 'disconnected', 'changed')),
  address         text,
  chain_id        bigint,
  connector       text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_states_user_id_idx ON wallet_states (user_id, created_at DESC) WHERE user_id IS NOT NULL;
