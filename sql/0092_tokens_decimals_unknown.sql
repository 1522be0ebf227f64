-- A token without a readable decimals() (optional in ERC-20) is stored with decimals NULL instead of a guessed 18:
-- its prices stay null and quotes refuse it (TOKEN_DECIMALS_FETCH_FAILED). Issue 24 item 8.
ALTER TABLE tokens ALTER COLUMN decimals DROP NOT NULL;
