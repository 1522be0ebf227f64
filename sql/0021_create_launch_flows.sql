-- The client API's launch flow (POST /v1/launch ...): an off-chain draft that the user's wallet turns into an on-chain
-- launch. Not to be confused with `launches` (indexed FireLaunch.Ignited events). Status is TokenLaunchStatus:
--   DRAFT --image--> IMAGE_UPLOADED --submit(tokenAddress)--> COMPLETED (token_metadata row created, same transaction)
--   DRAFT | IMAGE_UPLOADED --fail--> FAILED;   DRAFT --delete--> row removed
-- Transitions are single conditional UPDATEs (WHERE status = ANY(allowed)), so concurrent requests on one launch
-- cannot both move it.
CREATE TABLE launch_flows (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id          uuid NOT NULL REFERENCES users (id),
  chain_id         integer NOT NULL,
  name             text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 32),
  symbol           text NOT NULL CHECK (symbol ~ '^[A-Za-z0-9]{1,10}$'),
  description      text CHECK (char_length(description) <= 500),
  category         text NOT NULL,
  status           text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'IMAGE_UPLOADED', 'COMPLETED', 'FAILED')),
  image            text,
  -- set by submit (lowercase 0x-hex); one launch per token
  token_address    text UNIQUE CHECK (token_address ~ '^0x[0-9a-f]{40}$'),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz,
  failed_at        timestamptz,
  CHECK ((status = 'COMPLETED') = (token_address IS NOT NULL)),
  CHECK (status IN ('DRAFT') OR image IS NOT NULL OR status = 'FAILED')
);
-- At most one in-flight (pending) launch per user per (chainId, symbol), symbols compared case-insensitively. The
-- index, not a read-then-insert, decides between concurrent creates: the loser gets 400 DUPLICATE_LAUNCH.
CREATE UNIQUE INDEX launch_flows_one_in_flight ON launch_flows (user_id, chain_id, lower(symbol))
  WHERE status IN ('DRAFT', 'IMAGE_UPLOADED');
CREATE INDEX launch_flows_user ON launch_flows (user_id, created_at DESC);

-- token_metadata (0020) names the launch that created it. Only DRAFTs are ever deleted, and a DRAFT has no metadata.
ALTER TABLE token_metadata ADD CONSTRAINT token_metadata_launch_id_fkey FOREIGN KEY (launch_id) REFERENCES launch_flows (id);
ALTER TABLE token_metadata ADD CONSTRAINT token_metadata_launch_source CHECK ((source = 'launch') = (launch_id IS NOT NULL));
