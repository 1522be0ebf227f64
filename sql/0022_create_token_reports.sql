-- Reports of token listings by users (POST /v1/tokens/{mintAddress}/report), reviewed by admins
-- (GET /v1/tokens/admin/reports, POST /v1/tokens/admin/reports/{id}/resolve).
CREATE TABLE token_reports (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  chain_id         integer NOT NULL,
  token_address    text NOT NULL CHECK (token_address ~ '^0x[0-9a-f]{40}$'),
  reporter_id      uuid NOT NULL REFERENCES users (id),
  reason           text NOT NULL CHECK (reason IN ('scam', 'impersonation', 'offensive', 'spam', 'illegal', 'other')),
  details          text CHECK (char_length(details) <= 1000),
  -- open until an admin resolves it: 'dismissed' (no action) or 'hidden' (the token was hidden)
  resolution       text CHECK (resolution IN ('dismissed', 'hidden')),
  resolution_note  text CHECK (char_length(resolution_note) <= 500),
  resolved_by      uuid REFERENCES users (id),
  resolved_at      timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CHECK ((resolution IS NULL) = (resolved_at IS NULL) AND (resolved_at IS NULL) = (resolved_by IS NULL))
);
-- One OPEN report per user per token (a resolved one does not block a new report). Concurrent duplicates: the index
-- lets one INSERT through; the other gets 409 REPORT_ALREADY_OPEN.
CREATE UNIQUE INDEX token_reports_one_open ON token_reports (chain_id, token_address, reporter_id) WHERE resolved_at IS NULL;
CREATE INDEX token_reports_queue ON token_reports (created_at, id) WHERE resolved_at IS NULL;
CREATE INDEX token_reports_token ON token_reports (chain_id, token_address, created_at DESC);
