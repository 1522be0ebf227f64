import { ponder } from "ponder:registry"
import { swaps, transfers } from "ponder:schema"

// Minimal work: one insert per log, no reads, no derived tables.
ponder.on("Pool:Swap", async ({ event, context }) => {
  await context.db.insert(swaps).values({
    id: event.id,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    txHash: event.transaction.hash,
    blockTimestamp: event.block.timestamp,
    pool: event.log.address,
    sender: event.args.sender,
    recipient: event.args.recipient,
    amount0: event.args.amount0,
    amount1: event.args.amount1,
    sqrtPriceX96: event.args.sqrtPriceX96,
    liquidity: event.args.liquidity,
    tick: event.args.tick
  })
})

ponder.on("Token:Transfer", async ({ event, context }) => {
  await context.db.insert(transfers).values({
    id: event.id,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    txHash: event.transaction.hash,
    blockTimestamp: event.block.timestamp,
    token: event.log.address,
    from: event.args.from,
    to: event.args.to,
    value: event.args.value
  })
})
