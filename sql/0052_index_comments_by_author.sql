-- A user's comments, newest first, keyset by id (the profile's yaps widget, src/client-api/comments/UserYaps.ts); replaces the
-- (author_id, created_at) index of 0050, which no query reads.
DROP INDEX comments_author;
CREATE INDEX comments_by_author ON comments (author_id, id DESC) WHERE deleted_at IS NULL;
