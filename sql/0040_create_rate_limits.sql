-- Fixed-window rate-limit counters shared by every API process (src/platform/ratelimit/PostgresRateLimitStore.ts).
-- `counter` is "<bucket>:<key>" (e.g. "exchange-public:203.0.113.7"). UNLOGGED: no WAL on the hot path; after a
-- crash the table is empty, which only lets callers start a fresh window early.
CREATE UNLOGGED TABLE rate_limit_counters (
  counter     text PRIMARY KEY,
  count       bigint NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX rate_limit_counters_expires ON rate_limit_counters (expires_at);
