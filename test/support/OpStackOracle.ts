import { readFileSync } from "node:fs"
import { encodeFunctionData, encodePacked, type Hex, parseAbi, parseGwei } from "viem"
import { rpcRequest } from "../../layers/Anvil.ts"

/**
 * The real OP-stack fee predeploys on anvil: GasPriceOracle (0x4200…000F) and L1Block (0x4200…0015), their runtime
 * code from @eth-optimism/contracts-bedrock 0.17.3's forge artifacts (MIT; copied in test/fixtures/op-stack) put in place with
 * anvil_setCode, and their values set as the chain sets them: by the depositor account (impersonated) calling
 * L1Block.setL1BlockValuesEcotone and GasPriceOracle.setEcotone / setFjord.
 */
export const GAS_PRICE_ORACLE = "0x420000000000000000000000000000000000000F"
export const L1_BLOCK = "0x4200000000000000000000000000000000000015"
const DEPOSITOR = "0xDeaDDEaDDeAdDeAdDEAdDEaddeAddEAdDEAd0001"

export const oracleAbi = parseAbi([
  "function getL1Fee(bytes) view returns (uint256)",
  "function isFjord() view returns (bool)",
  "function setEcotone()",
  "function setFjord()"
])

const deployedBytecode = (contract: "GasPriceOracle" | "L1Block"): Hex =>
  JSON.parse(readFileSync(new URL(`../fixtures/op-stack/${contract}.json`, import.meta.url), "utf8")).deployedBytecode

/** What L1Block holds of the L1 chain: the inputs of the fee (Base's scalars by default). */
export interface L1Values {
  readonly l1BaseFee: bigint
  readonly blobBaseFee: bigint
  readonly baseFeeScalar: number
  readonly blobBaseFeeScalar: number
}

export const BASE_LIKE: L1Values = {
  l1BaseFee: parseGwei("12"),
  blobBaseFee: 3n,
  baseFeeScalar: 2269,
  blobBaseFeeScalar: 1055762
}

/** A transaction from the depositor, mined and successful (anvil mines it at once; its receipt polled). */
const asDepositor = async (rpcUrl: string, to: string, data: Hex) => {
  const hash = await rpcRequest<Hex>(rpcUrl, "eth_sendTransaction", [{ from: DEPOSITOR, to, data, gas: "0x100000" }])
  const until = Date.now() + 30_000
  for (;;) {
    const receipt = await rpcRequest<{ status: string } | null>(rpcUrl, "eth_getTransactionReceipt", [hash])
    if (receipt !== null) {
      if (receipt.status !== "0x1") throw new Error(`the depositor's call to ${to} reverted (${data.slice(0, 10)})`)
      return
    }
    if (Date.now() > until) throw new Error(`no receipt for ${hash} within 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export const installPredeploys = async (rpcUrl: string) => {
  await rpcRequest(rpcUrl, "anvil_setCode", [GAS_PRICE_ORACLE, deployedBytecode("GasPriceOracle")])
  await rpcRequest(rpcUrl, "anvil_setCode", [L1_BLOCK, deployedBytecode("L1Block")])
  await rpcRequest(rpcUrl, "anvil_impersonateAccount", [DEPOSITOR])
  await rpcRequest(rpcUrl, "anvil_setBalance", [DEPOSITOR, "0x56bc75e2d63100000"])
}

/** L1Block.setL1BlockValuesEcotone: its arguments packed after the selector, in the order L1Block.sol reads them. */
export const setL1Values = (rpcUrl: string, v: L1Values) =>
  asDepositor(
    rpcUrl,
    L1_BLOCK,
    encodePacked(
      ["bytes4", "uint32", "uint32", "uint64", "uint64", "uint64", "uint256", "uint256", "bytes32", "bytes32"],
      [
        "0x440a5e20", // setL1BlockValuesEcotone()
        v.baseFeeScalar,
        v.blobBaseFeeScalar,
        0n,
        1_700_000_000n,
        20_000_000n,
        v.l1BaseFee,
        v.blobBaseFee,
        `0x${"11".repeat(32)}`,
        `0x${"22".repeat(32)}`
      ]
    )
  )

export const setEcotone = (rpcUrl: string) =>
  asDepositor(rpcUrl, GAS_PRICE_ORACLE, encodeFunctionData({ abi: oracleAbi, functionName: "setEcotone" }))

export const setFjord = (rpcUrl: string) =>
  asDepositor(rpcUrl, GAS_PRICE_ORACLE, encodeFunctionData({ abi: oracleAbi, functionName: "setFjord" }))
