-- When the sign-in that started a chain of refreshed sessions happened (issue 23 M4): a refresh copies it, and no
-- session of the chain lives past signed_in_at + SESSION_MAX_LIFETIME. Existing rows count from their creation.
ALTER TABLE sessions ADD COLUMN signed_in_at timestamptz;
UPDATE sessions SET signed_in_at = created_at;
ALTER TABLE sessions ALTER COLUMN signed_in_at SET NOT NULL, ALTER COLUMN signed_in_at SET DEFAULT now();
