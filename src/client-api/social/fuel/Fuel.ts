import { Schema } from "effect"

/**
 * Fuel (tips) as the API shows it. On chain, `FuelVault.give(token)` sends ETH to a launched token's creator (it accrues
 * per token) and `withdraw(token)` pays the creator everything accrued, until the token graduates; fuel still accrued at
 * graduation stays in the vault for good. Everything here is read from the indexed FuelVault events (`fuel_events`),
 * whose rows a reorg removes, so every figure is a sum over the events of the current canonical chain.
 */

export const Wei = Schema.String.check(Schema.isPattern(/^\d+$/u)).annotate({
  description: "Amount in wei as a decimal string (uint256 does not fit a JSON number)",
  examples: ["250000000000000000"]
})

export class FuelTransaction extends Schema.Class<FuelTransaction>("FuelTransaction")({
  token: Schema.String.annotate({ description: "Checksummed address of the token the fuel was given to" }),
  tokenSymbol: Schema.NullOr(Schema.String).annotate({ description: "Its symbol (null if the token is not indexed)" }),
  tokenName: Schema.NullOr(Schema.String),
  counterparty: Schema.String.annotate({
    description: "The other side: the giver on /received, the token's creator on /given (checksummed)"
  }),
  from: Schema.String.annotate({ description: "Giver (checksummed)" }),
  to: Schema.String.annotate({ description: "The token's creator, who receives the fuel (checksummed)" }),
  amount: Wei,
  txHash: Schema.String,
  blockNumber: Schema.String.annotate({ description: "Block number (decimal string)" }),
  logIndex: Schema.Int,
  blockTime: Schema.String.annotate({ description: "ISO 8601 time of the block" })
}) {}

export class FuelTransactionPage extends Schema.Class<FuelTransactionPage>("FuelTransactionPage")({
  walletAddress: Schema.NullOr(Schema.String).annotate({
    description: "The wallet the page is about (null: no wallet)"
  }),
  items: Schema.Array(FuelTransaction).annotate({ description: "Newest first (block, then log index)" }),
  nextCursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null at the end. Pages are stable while new fuel arrives."
  })
}) {}

export class TokenFuelBalance extends Schema.Class<TokenFuelBalance>("TokenFuelBalance")({
  token: Schema.String,
  tokenSymbol: Schema.NullOr(Schema.String),
  received: Wei.annotate({ description: "All fuel given to this token (wei)" }),
  withdrawn: Wei.annotate({ description: "All fuel the creator withdrew for it (wei)" }),
  pending: Wei.annotate({ description: "received − withdrawn: what FuelVault.fuelOf(token) holds" }),
  graduated: Schema.Boolean.annotate({
    description: "Graduated tokens cannot be withdrawn from any more: their pending fuel is locked in the vault"
  })
}) {}

export class FuelCredits extends Schema.Class<FuelCredits>("FuelCredits")({
  walletAddress: Schema.NullOr(Schema.String).annotate({
    description: "The caller's wallet; null for an identity-provider user without a wallet (on-chain parts are 0)"
  }),
  balance: Wei.annotate({ description: "withdrawable + giftCredits: what the caller can use now" }),
  withdrawable: Wei.annotate({
    description: "Pending fuel of the caller's non-graduated tokens: withdraw(token) pays it"
  }),
  locked: Wei.annotate({ description: "Pending fuel of graduated tokens (stays in the vault)" }),
  received: Wei.annotate({ description: "All fuel ever given to the caller's tokens" }),
  withdrawn: Wei.annotate({ description: "All fuel the caller's tokens paid out" }),
  giftCredits: Wei.annotate({
    description: "Off-chain fuel credits from daily gifts (POST /v1/gifts); they never move on chain"
  }),
  tokens: Schema.Array(TokenFuelBalance).annotate({ description: "Per token created by the caller that got fuel" }),
  indexedBlock: Schema.NullOr(Schema.String).annotate({
    description: "The indexer's last committed block: figures are as of it"
  })
}) {}
