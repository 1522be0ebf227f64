-- Failed signatures made with a nonce (issue 23 M3): a nonce dies after SIWE_NONCE_MAX_FAILURES of them, so one
-- nonce no longer allows unlimited verification attempts (each may cost an eth_call) for its 5 minutes.
ALTER TABLE wallet_nonces ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0;
