import { LibZip } from "solady"
import { type Hex, parseGwei, serializeTransaction } from "viem"

/**
 * The L1 data fee of an OP-stack chain's GasPriceOracle predeploy (0x4200…000F), `getL1Fee(bytes)`, computed locally
 * from the values the oracle reads (L1DataFee.ts reads them once per block): no RPC per quote. Both formulas the
 * predeploy has run since 2024:
 *   Ecotone: calldata gas = 4 per zero byte + 16 per other byte + 68 × 16 (the signature the unsigned bytes lack);
 *            fee = gas × (16 × baseFeeScalar × l1BaseFee + blobBaseFeeScalar × blobBaseFee) / (16 × 10^6)
 *   Fjord:   size = max(100 × 10^6, −42,585,600 + 836,500 × (FastLZ length of the bytes + 68)), a linear estimate of
 *            the Brotli-compressed size (× 10^6); fee = size × (the same scaled fee) / 10^12
 * The FastLZ length is the compressed length of Solady's LibZip.flzCompress (its JavaScript twin of the library the
 * predeploy calls). test/quotes/L1FeeFormula.test.ts checks both against the real predeploy on anvil.
 */
export interface OracleParams {
  /** Fjord is active (else Ecotone: a pre-Ecotone oracle is not supported, L1DataFee.ts). */
  readonly fjord: boolean
  readonly l1BaseFee: bigint
  readonly blobBaseFee: bigint
  readonly baseFeeScalar: bigint
  readonly blobBaseFeeScalar: bigint
}

/** The transaction a quote returns (its methodParameters). */
export interface QuotedTransaction {
  readonly to: `0x${string}`
  readonly calldata: `0x${string}`
  /** Wei, hex. */
  readonly value: `0x${string}`
}

const SIGNATURE_BYTES = 68n
const FJORD_INTERCEPT = -42_585_600n
const FJORD_FASTLZ_COEF = 836_500n
const FJORD_MIN_SIZE = 100_000_000n

/**
 * The bytes the fee is computed on: the quote's transaction as an unsigned EIP-1559 transaction with the stand-ins
 * viem's `estimateL1Fee` uses (gas 300,000, max fee 5 gwei, priority fee 1 gwei, nonce 1; no access list). The node
 * charges the signed transaction as sent; the oracle's `+ 68` stands for the signature, and the sender's real gas
 * limit, fees and nonce differ from the stand-ins by a few bytes out of the calldata's hundreds (well under 1 % of the
 * fee), the same approximation every wallet makes with `getL1Fee`.
 */
export const unsignedTransaction = (tx: QuotedTransaction, chainId: number): Hex =>
  serializeTransaction({
    type: "eip1559",
    chainId,
    to: tx.to,
    data: tx.calldata,
    value: BigInt(tx.value),
    gas: 300_000n,
    maxFeePerGas: parseGwei("5"),
    maxPriorityFeePerGas: parseGwei("1"),
    nonce: 1
  })

const scaledFee = (p: OracleParams) => 16n * p.baseFeeScalar * p.l1BaseFee + p.blobBaseFeeScalar * p.blobBaseFee

const calldataGas = (bytes: Hex) => {
  let gas = SIGNATURE_BYTES * 16n
  for (let i = 2; i < bytes.length; i += 2) gas += bytes[i] === "0" && bytes[i + 1] === "0" ? 4n : 16n
  return gas
}

/** The length in bytes of the FastLZ compression of `bytes` (hex). */
export const fastLzLength = (bytes: Hex): number => (LibZip.flzCompress(bytes).length - 2) / 2

/** What the oracle's `getL1Fee(bytes)` answers with these parameters. */
export const l1Fee = (p: OracleParams, bytes: Hex): bigint => {
  if (!p.fjord) return (calldataGas(bytes) * scaledFee(p)) / 16_000_000n
  const estimate = FJORD_INTERCEPT + FJORD_FASTLZ_COEF * (BigInt(fastLzLength(bytes)) + SIGNATURE_BYTES)
  const size = estimate < FJORD_MIN_SIZE ? FJORD_MIN_SIZE : estimate
  return (size * scaledFee(p)) / 1_000_000_000_000n
}
