-- Token listings: the off-chain side of a launched token (client API issue 6). A listing is an indexed canonical launch
-- (`tokens` with is_launch, `launches`) plus, optionally, its metadata record and an admin hide. Addresses are
-- lowercase 0x-hex like the indexed tables, so joins need no lower().
--
-- Readers outside the client API (the exchange API's /api/v1/tokens/fire-meta, search, feeds) should read
-- `token_listings` (below): it already drops hidden tokens and carries the metadata columns.

-- TokenMetadata: links a token to the user who proved to be its on-chain creator. Created ONLY by a successful claim
-- (POST /v1/tokens/{mintAddress}/claim) or a successful launch submit (POST /v1/launch/{id}/submit), never updated
-- except for `image` (claim image upload). The primary key is what makes a token claimable once: of concurrent
-- claims or submits, exactly one INSERT wins (the others see ON CONFLICT DO NOTHING → ALREADY_CLAIMED).
CREATE TABLE token_metadata (
  chain_id         integer NOT NULL,
  token_address    text NOT NULL CHECK (token_address ~ '^0x[0-9a-f]{40}$'),
  -- the listing's creatorId: the claimant / launcher (a users row)
  creator_id       uuid NOT NULL REFERENCES users (id),
  -- the on-chain creator (FireLaunch.creatorOf) that signed the claim or launched; EIP-55 checksummed
  creator_wallet   text NOT NULL CHECK (creator_wallet ~ '^0x[0-9a-fA-F]{40}$'),
  -- read from the ERC-20 contract at claim/submit time (never from the request body)
  name             text NOT NULL,
  symbol           text NOT NULL,
  -- from the launch draft (submit); NULL for a claim
  description      text,
  category         text,
  -- `/v1/images/<sha256>.webp`: the launch image (submit) or the claim image (claim/image); NULL until uploaded
  image            text,
  source           text NOT NULL CHECK (source IN ('claim', 'launch')),
  -- the launch flow that created it (source = 'launch'); foreign key added in 0021 with launch_flows
  launch_id        uuid,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, token_address)
);
CREATE INDEX token_metadata_creator ON token_metadata (creator_id, created_at DESC);

-- Tokens an admin deleted (hid) from the listings. A row exists while the token is hidden; unhiding deletes it (the
-- audit trail is token_admin_actions). A hidden token: GET routes answer 410 TOKEN_DELETED, claims and submits are
-- refused with TOKEN_DELETED, and it is absent from `token_listings`. Independent of token_metadata: an unclaimed
-- token can be hidden too.
CREATE TABLE token_hides (
  chain_id         integer NOT NULL,
  token_address    text NOT NULL CHECK (token_address ~ '^0x[0-9a-f]{40}$'),
  hidden_by        uuid NOT NULL REFERENCES users (id),
  reason           text CHECK (char_length(reason) <= 500),
  hidden_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, token_address)
);

-- One row per admin action on a token listing, written in the same transaction as the change.
CREATE TABLE token_admin_actions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_id         uuid NOT NULL REFERENCES users (id),
  chain_id         integer NOT NULL,
  token_address    text NOT NULL,
  action           text NOT NULL CHECK (action IN ('hide', 'unhide')),
  reason           text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX token_admin_actions_token ON token_admin_actions (chain_id, token_address, created_at DESC);

-- Visible listings: every indexed launched token that is not hidden, with its metadata when claimed (creator_id NULL
-- = unclaimed). The one place that encodes "hidden tokens disappear from lists".
CREATE VIEW token_listings AS
SELECT
  t.chain_id,
  t.address AS token_address,
  t.name AS chain_name,
  t.symbol AS chain_symbol,
  l.creator AS chain_creator,
  m.creator_id,
  m.creator_wallet,
  m.description,
  m.category,
  m.image,
  m.source AS metadata_source,
  m.created_at AS claimed_at,
  (m.creator_id IS NOT NULL) AS claimed
FROM tokens t
JOIN launches l ON l.chain_id = t.chain_id AND l.token = t.address
LEFT JOIN token_metadata m ON m.chain_id = t.chain_id AND m.token_address = t.address
WHERE t.is_launch
  AND NOT EXISTS (SELECT 1 FROM token_hides h WHERE h.chain_id = t.chain_id AND h.token_address = t.address);
