-- Gifts: a cycle (a UTC day by default) in which each user may claim one gift of off-chain fuel credits.
-- Cycles are created lazily by the first request that finds the last one ended (aligned to GIFT_CYCLE_SECONDS since
-- the Unix epoch, or to the end of the previous cycle), or by an admin reset, which ends the open cycle at once.
CREATE TABLE gift_cycles (
  number      integer PRIMARY KEY,
  started_at  timestamptz NOT NULL,
  ends_at     timestamptz NOT NULL CHECK (ends_at >= started_at),
  opened_by   text NOT NULL CHECK (opened_by IN ('schedule', 'admin_reset')),
  reset_by    uuid REFERENCES users (id),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- One claim per user per cycle: the primary key is what makes a claim happen exactly once under concurrent requests.
CREATE TABLE gift_claims (
  cycle_number  integer NOT NULL REFERENCES gift_cycles (number),
  user_id       uuid NOT NULL REFERENCES users (id),
  amount        numeric(78,0) NOT NULL CHECK (amount > 0),
  streak        integer NOT NULL CHECK (streak >= 1),
  claimed_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cycle_number, user_id)
);
CREATE INDEX gift_claims_user ON gift_claims (user_id, cycle_number DESC);
