/** Subscriptions kept per user; subscribing one more drops that user's oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20
