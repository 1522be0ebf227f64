-- Engagement (src/client-api/comments/engagement): likes, dislikes and favorites on comments and tokens.
-- `target_type` is 'comment' (target_id = the comment id as text) or 'token' (target_id = lower-case address).
-- The feed reads `favorites (user_id, target_type, target_id)` for its FAVORITE relevance.

-- A user's reaction to a target: one row at most, so like and dislike exclude each other by construction.
CREATE TABLE reactions (
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_type  text NOT NULL CHECK (target_type IN ('comment', 'token')),
  target_id    text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('like', 'dislike')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, target_type, target_id)
);
CREATE INDEX reactions_target ON reactions (target_type, target_id);

CREATE TABLE favorites (
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_type  text NOT NULL CHECK (target_type IN ('comment', 'token')),
  target_id    text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- keyset of the caller's favorites list (newest first)
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (user_id, target_type, target_id)
);
CREATE INDEX favorites_list ON favorites (user_id, seq DESC);

-- Counters of token targets (comment counters live on the comments row). A toggle locks the target's counter row
-- first, so concurrent toggles on one target run one after the other and counts never go negative.
CREATE TABLE token_engagement (
  token           text PRIMARY KEY CHECK (token ~ '^0x[0-9a-f]{40}$'),
  like_count      integer NOT NULL DEFAULT 0 CHECK (like_count >= 0),
  dislike_count   integer NOT NULL DEFAULT 0 CHECK (dislike_count >= 0),
  favorite_count  integer NOT NULL DEFAULT 0 CHECK (favorite_count >= 0)
);
