/**
 * Gas model: a swap transaction costs a fixed base, each leg (route of a split) the cost of its first pool swap,
 * each further hop of the leg more (tokens pass through the router: two extra transfers), and each initialized tick
 * crossed a fixed amount. Fitted by least squares to 46 receipts of SwapRouter02 `multicall(deadline,
 * [exactInput...])` on anvil: 1–3 hops, 0–18 ticks, 1–2 legs (`node scripts/calibrate-routing-gas.ts` prints the
 * samples and the fit: base 94,235, per leg −24,896, per hop 60,252, per tick 28,428; worst residual ~59k, mostly
 * whether a crossing writes fresh tick storage). The constants below are that fit, regrouped so none is negative.
 * QuoterV2's own gasEstimate runs ~20–30k lower (it leaves out the transaction and router overhead).
 * Quote.ts converts the gas cost into the quote token at the graph's WETH mid price (Price.nativeRate).
 */
export const GAS = {
  /** Intrinsic 21,000, calldata and the SwapRouter02 multicall, once per transaction. */
  base: 94_000n,
  /** The first pool swap of a leg (tokens go straight from the payer to the pool). */
  firstHop: 35_000n,
  /** Each further hop of a leg. */
  extraHop: 60_000n,
  /** Each initialized tick crossed. */
  perTick: 28_000n
} as const

/** Gas of one leg, without the transaction base. */
export const routeGas = (hops: number, ticksCrossed: number): bigint =>
  GAS.firstHop + GAS.extraHop * BigInt(hops - 1) + GAS.perTick * BigInt(ticksCrossed)

export const totalGas = (legs: ReadonlyArray<bigint>): bigint => legs.reduce((sum, g) => sum + g, GAS.base)
