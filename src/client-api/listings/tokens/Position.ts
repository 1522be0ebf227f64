/**
 * A wallet's position in a launched token from its trades in the launch pool, by the average-cost method, in WETH
 * (integer wei) and in USD (the swaps' USD sizes). Pure: the service feeds it the swap rows and the prices.
 *
 * A swap counts when its recipient is the wallet (SwapRouter02 `exactInputSingle` with `recipient` = wallet, the
 * devnet's and the quote engine's path): a buy pays the token out of the pool (token amount < 0), a sell pays
 * WETH out (token amount > 0). Tokens that arrived by transfer are in `balance` but carry no cost.
 */
export interface PositionSwap {
  readonly amount0: string
  readonly amount1: string
  readonly amountUsd: number | null
}

export interface PositionFigures {
  readonly bought: bigint
  readonly sold: bigint
  readonly buys: number
  readonly sells: number
  readonly costBasisWei: bigint
  readonly realizedPnlWei: bigint
  readonly costBasisUsd: number
}

export const foldPosition = (swaps: ReadonlyArray<PositionSwap>, tokenIsToken0: boolean): PositionFigures => {
  let held = 0n // tokens bought and not yet sold (the average-cost pool)
  let cost = 0n
  let costUsd = 0
  let realized = 0n
  let bought = 0n
  let sold = 0n
  let buys = 0
  let sells = 0
  for (const s of swaps) {
    const token = BigInt(tokenIsToken0 ? s.amount0 : s.amount1)
    const weth = BigInt(tokenIsToken0 ? s.amount1 : s.amount0)
    if (token < 0n) {
      buys++
      bought += -token
      held += -token
      cost += weth > 0n ? weth : 0n
      costUsd += s.amountUsd ?? 0
    } else if (token > 0n) {
      sells++
      sold += token
      const out = weth < 0n ? -weth : 0n
      // Only the part of the sale covered by bought tokens has a cost; the rest (transferred in) is all gain.
      const covered = token < held ? token : held
      const removed = held === 0n ? 0n : (cost * covered) / held
      const removedUsd = held === 0n ? 0 : (costUsd * Number(covered)) / Number(held)
      realized += out - removed
      cost -= removed
      costUsd -= removedUsd
      held -= covered
    }
  }
  return { bought, sold, buys, sells, costBasisWei: cost, realizedPnlWei: realized, costBasisUsd: costUsd }
}
