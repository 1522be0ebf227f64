-- In-app notifications and their web push delivery (src/client-api/notifications, src/client-api/notifications/push).

-- One row per notification. `kind` and the shape of `payload` are documented in src/client-api/notifications/Notification.ts
-- (and OpenAPI). `dedupe_key` makes an event notify at most once however often it is seen (a like toggled on twice,
-- a chain event read again after a restart or a reorg): NULL for events that cannot repeat.
CREATE TABLE notifications (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        text NOT NULL,
  payload     jsonb NOT NULL,
  dedupe_key  text UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  read_at     timestamptz
);
CREATE INDEX notifications_user ON notifications (user_id, id DESC);
CREATE INDEX notifications_user_unread ON notifications (user_id, id DESC) WHERE read_at IS NULL;

-- The unread count per user, kept in the same transaction as every insert and mark-read (no count(*) per request).
CREATE TABLE notification_counters (
  user_id  uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  unread   integer NOT NULL DEFAULT 0 CHECK (unread >= 0)
);

-- How far each chain-event source has been turned into notifications (only blocks past the finality depth).
CREATE TABLE notification_cursors (
  name          text PRIMARY KEY,
  block_number  bigint NOT NULL
);

-- Browser push subscriptions (the PushSubscription JSON). An endpoint belongs to one user: subscribing it again
-- (another account in the same browser) moves it.
CREATE TABLE push_subscriptions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint         text NOT NULL UNIQUE,
  p256dh           text NOT NULL,
  auth             text NOT NULL,
  expiration_time  bigint,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

-- The push queue: one job per (notification, subscription), written in the transaction that created the
-- notification and worked by a fiber (src/client-api/notifications/push/PushWorker.ts). A worker leases due jobs (locked_until) so that
-- several processes can share the queue; a 5xx or network failure moves next_attempt_at back with backoff.
CREATE TABLE push_jobs (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  notification_id  bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  subscription_id  bigint NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  locked_until     timestamptz,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_jobs_due ON push_jobs (next_attempt_at);
CREATE INDEX push_jobs_subscription ON push_jobs (subscription_id);

-- Chain events name their recipient by wallet (lower-case in the indexed tables).
CREATE INDEX users_wallet_lower ON users (lower(wallet_address));
