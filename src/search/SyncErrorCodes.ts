/**
 * Stable codes of sync failures, one per step. `/api/v1/search/index` is public: a raw error text could name the
 * backend's address, a SQL statement or a credential-bearing URL, so the response carries the code and the log the text.
 */
export const SyncErrorCodes = [
  "SEARCH_START_FAILED",
  "SEARCH_CHANGE_FAILED",
  "SEARCH_POLL_FAILED",
  "SEARCH_REFRESH_FAILED"
] as const
export type SyncErrorCode = (typeof SyncErrorCodes)[number]
