-- Comments (yaps) on token threads (src/client-api/comments). Read also by the feeds (YAP items), the yaps leaderboard and the
-- yapper badge: they expect `comments (id, token, author_id, text, created_at, deleted_at)` with `token` lower-case.
-- Comments have no chain id: the client API serves one chain, as the token listings do.

-- One row per token thread: the post-number counter and the live comment count. A create locks this row
-- (`UPDATE ... SET last_post_number = last_post_number + 1 RETURNING`) in its transaction, so post numbers are
-- 1, 2, 3... without gap or duplicate, and they commit in order (keyset pages by post number never skip one).
CREATE TABLE comment_threads (
  token             text PRIMARY KEY CHECK (token ~ '^0x[0-9a-f]{40}$'),
  last_post_number  integer NOT NULL DEFAULT 0 CHECK (last_post_number >= 0),
  -- comments not deleted (replies included)
  comment_count     integer NOT NULL DEFAULT 0 CHECK (comment_count >= 0)
);

CREATE TABLE comments (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token           text NOT NULL REFERENCES comment_threads (token),
  post_number     integer NOT NULL CHECK (post_number > 0),
  author_id       uuid NOT NULL REFERENCES users (id),
  -- NULL for a top-level comment; a reply belongs to the same token as its parent (checked by the service)
  reply_to        bigint REFERENCES comments (id),
  -- stored as given (never rendered); emptied on delete
  text            text NOT NULL,
  -- `/v1/images/<sha256>.webp` from the image pipeline, or NULL
  image           text,
  -- resolved @username mentions: [{ "userId": uuid, "username": text }]
  mentions        jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- replies ever written to this comment (a deleted reply stays in the thread as a tombstone, so it still counts)
  reply_count     integer NOT NULL DEFAULT 0 CHECK (reply_count >= 0),
  like_count      integer NOT NULL DEFAULT 0 CHECK (like_count >= 0),
  dislike_count   integer NOT NULL DEFAULT 0 CHECK (dislike_count >= 0),
  favorite_count  integer NOT NULL DEFAULT 0 CHECK (favorite_count >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  edited_at       timestamptz,
  -- soft delete: the row and its post number stay, so the thread keeps its shape
  deleted_at      timestamptz,
  deleted_by      uuid REFERENCES users (id),
  UNIQUE (token, post_number)
);
-- A thread's top-level comments and a comment's replies, both in post-number order (the keyset of their pages).
CREATE INDEX comments_top_level ON comments (token, post_number) WHERE reply_to IS NULL;
CREATE INDEX comments_replies ON comments (reply_to, post_number) WHERE reply_to IS NOT NULL;
-- Feeds read yaps newest first (src/client-api/social/feed/FeedRepo.ts: created_at, then id); leaderboards and badges per author.
CREATE INDEX comments_feed ON comments (created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX comments_author ON comments (author_id, created_at DESC) WHERE deleted_at IS NULL;

-- Reports of comments (POST /v1/comments/{id}/report): one open report per user per comment.
CREATE TABLE comment_reports (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  comment_id   bigint NOT NULL REFERENCES comments (id),
  reporter_id  uuid NOT NULL REFERENCES users (id),
  reason       text NOT NULL CHECK (reason IN ('scam', 'impersonation', 'offensive', 'spam', 'illegal', 'other')),
  details      text CHECK (char_length(details) <= 1000),
  resolved_at  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX comment_reports_one_open ON comment_reports (comment_id, reporter_id) WHERE resolved_at IS NULL;
CREATE INDEX comment_reports_queue ON comment_reports (created_at, id) WHERE resolved_at IS NULL;
