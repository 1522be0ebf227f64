import { onchainTable } from "ponder"

/** One row per Swap log, the columns of our `swaps` table that come from the log. */
export const swaps = onchainTable("swaps", (t) => ({
  id: t.text().primaryKey(),
  blockNumber: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
  txHash: t.hex().notNull(),
  blockTimestamp: t.bigint().notNull(),
  pool: t.hex().notNull(),
  sender: t.hex().notNull(),
  recipient: t.hex().notNull(),
  amount0: t.bigint().notNull(),
  amount1: t.bigint().notNull(),
  sqrtPriceX96: t.bigint().notNull(),
  liquidity: t.bigint().notNull(),
  tick: t.integer().notNull()
}))

/** One row per Transfer log, the columns of our `token_transfers` table. */
export const transfers = onchainTable("transfers", (t) => ({
  id: t.text().primaryKey(),
  blockNumber: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
  txHash: t.hex().notNull(),
  blockTimestamp: t.bigint().notNull(),
  token: t.hex().notNull(),
  from: t.hex().notNull(),
  to: t.hex().notNull(),
  value: t.bigint().notNull()
}))
