-- Process-wide key/value state that must survive restarts and be shared by every API process:
-- generated secrets (JWT signing key, VAPID keys) and feature flags. Values are JSON.
CREATE TABLE IF NOT EXISTS app_settings (
  name        text PRIMARY KEY,
  value       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
