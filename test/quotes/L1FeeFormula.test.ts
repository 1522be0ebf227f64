import * as fc from "fast-check"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPublicClient, type Hex, http, parseGwei, type PublicClient } from "viem"
import { type AnvilInstance, startAnvil } from "../../layers/Anvil.ts"
import { l1Fee, type OracleParams, unsignedTransaction } from "../../src/exchange-api/quotes/L1FeeFormula.ts"
import {
  BASE_LIKE,
  GAS_PRICE_ORACLE,
  installPredeploys,
  type L1Values,
  oracleAbi,
  setEcotone,
  setFjord,
  setL1Values
} from "../support/OpStackOracle.ts"

/**
 * src/exchange-api/quotes/L1FeeFormula.ts against the real GasPriceOracle and L1Block predeploys
 * (@eth-optimism/contracts-bedrock, test/support/OpStackOracle.ts) on anvil: for random bytes shaped like calldata
 * (zero runs, random words, repeated words and addresses, so FastLZ finds both literals and matches) and for
 * serialised quote transactions, the local fee equals the oracle's `getL1Fee` to the wei, under Ecotone and Fjord,
 * with Base's scalars and with L1 fees from tiny to very high.
 */

let anvil: AnvilInstance
let home: string
let client: PublicClient

beforeAll(async () => {
  home = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-l1fee-"))
  anvil = await startAnvil({ dataDir: home, port: 0 })
  client = createPublicClient({ transport: http(anvil.rpcUrl) }) as PublicClient
  await installPredeploys(anvil.rpcUrl)
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
  if (home !== undefined) NodeFs.rmSync(home, { recursive: true, force: true })
})

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

/** Calldata-like bytes: a selector then chunks of the kinds swap calldata is made of. */
const calldata = fc
  .tuple(
    fc.uint8Array({ minLength: 4, maxLength: 4 }),
    fc.array(
      fc.oneof(
        fc.integer({ min: 1, max: 200 }).map((n) => "00".repeat(n)),
        fc.uint8Array({ minLength: 1, maxLength: 64 }).map(hex),
        // An address or an amount, left-padded to a word.
        fc.uint8Array({ minLength: 1, maxLength: 20 }).map((b) => hex(b).padStart(64, "0")),
        fc
          .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 2, max: 6 }))
          .map(([w, n]) => hex(w).repeat(n)),
        fc.integer({ min: 1, max: 300 }).map((n) => "ff".repeat(n))
      ),
      { minLength: 0, maxLength: 40 }
    )
  )
  .map(([selector, chunks]) => `0x${hex(selector)}${chunks.join("")}` as Hex)

const oracleFee = (bytes: Hex) =>
  client.readContract({ address: GAS_PRICE_ORACLE, abi: oracleAbi, functionName: "getL1Fee", args: [bytes] })

const paramsOf = (v: L1Values, fjord: boolean): OracleParams => ({
  fjord,
  l1BaseFee: v.l1BaseFee,
  blobBaseFee: v.blobBaseFee,
  baseFeeScalar: BigInt(v.baseFeeScalar),
  blobBaseFeeScalar: BigInt(v.blobBaseFeeScalar)
})

const HIGH_FEES: L1Values = {
  l1BaseFee: parseGwei("300"),
  blobBaseFee: parseGwei("40"),
  baseFeeScalar: 1368,
  blobBaseFeeScalar: 810949
}

const samples = (seed: number, numRuns: number) => fc.sample(calldata, { seed, numRuns })

/** Serialised quote-shaped transactions: the bytes L1DataFee.ts prices. */
const transactions = (seed: number) =>
  fc
    .sample(fc.tuple(calldata, fc.bigInt({ min: 0n, max: 1n << 80n })), { seed, numRuns: 20 })
    .map(([data, value]) =>
      unsignedTransaction(
        { to: "0x66a9893cc07d91d95644aedd05d03f95e1dba8af", calldata: data, value: `0x${value.toString(16)}` },
        8453
      )
    )

const expectSame = async (params: OracleParams, inputs: ReadonlyArray<Hex>) => {
  for (const bytes of inputs) expect(l1Fee(params, bytes), bytes).toBe(await oracleFee(bytes))
}

describe("the L1 data fee computed locally equals the real GasPriceOracle's getL1Fee", () => {
  it("Ecotone, then Fjord, at Base's scalars and at high L1 fees, on random calldata and quote transactions", async () => {
    await setL1Values(anvil.rpcUrl, BASE_LIKE)
    await setEcotone(anvil.rpcUrl)
    expect(await client.readContract({ address: GAS_PRICE_ORACLE, abi: oracleAbi, functionName: "isFjord" })).toBe(
      false
    )
    // Short inputs too: the empty calldata, a bare selector.
    const edge: Array<Hex> = ["0x", "0x12345678", `0x${"00".repeat(1000)}`, `0x${"ab".repeat(5000)}`]
    await expectSame(paramsOf(BASE_LIKE, false), [...edge, ...samples(1, 150), ...transactions(2)])
    await setL1Values(anvil.rpcUrl, HIGH_FEES)
    await expectSame(paramsOf(HIGH_FEES, false), samples(3, 50))

    await setFjord(anvil.rpcUrl)
    expect(await client.readContract({ address: GAS_PRICE_ORACLE, abi: oracleAbi, functionName: "isFjord" })).toBe(true)
    await expectSame(paramsOf(HIGH_FEES, true), [...edge, ...samples(4, 150), ...transactions(5)])
    await setL1Values(anvil.rpcUrl, BASE_LIKE)
    await expectSame(paramsOf(BASE_LIKE, true), [...samples(6, 150), ...transactions(7)])
    // Below Fjord's minimum size (100 bytes), both sides floor the estimate.
    const tiny = paramsOf(BASE_LIKE, true)
    expect(l1Fee(tiny, "0x")).toBe(l1Fee(tiny, "0x12345678"))
  }, 120_000)
})
