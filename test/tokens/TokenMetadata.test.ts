import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Address, encodeAbiParameters, parseEther, stringToHex } from "viem"
import {
  Bytes32MetadataTokenAbi,
  Bytes32MetadataTokenBytecode,
  FeeOnTransferTokenAbi,
  FeeOnTransferTokenBytecode,
  NoDecimalsTokenAbi,
  NoDecimalsTokenBytecode
} from "../../contracts/generated/index.ts"
import { decodeTokenText } from "../../src/platform/TokenText.ts"
import { indexedHead } from "../exchange/support.ts"
import { balanceOf, buyWithWeth, createPool } from "../quotes/chain.ts"
import { exchange, query, QuoteServices } from "../quotes/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"

/**
 * Token metadata that is not the common case, on real anvil with the indexer and the exchange: a token whose
 * name()/symbol() return bytes32 (MKR style) and a token without decimals(), each in a pool with a launch token (so
 * the indexer follows it). The bytes32 text is decoded; the missing decimals are stored as unknown (never 18), the
 * token gets no prices and quotes refuse it with TOKEN_DECIMALS_FETCH_FAILED. A fee-on-transfer token is refused
 * (FEE_ON_TRANSFER_UNSUPPORTED) whether it is the input, the output or in the middle of the route.
 */
describe("decodeTokenText", () => {
  it("decodes an ABI string, a bytes32 (trailing zeros trimmed, UTF-8), and refuses garbage", () => {
    assert.strictEqual(decodeTokenText(encodeAbiParameters([{ type: "string" }], ["Dai Stablecoin"])), "Dai Stablecoin")
    assert.strictEqual(decodeTokenText(stringToHex("MKR", { size: 32 })), "MKR")
    assert.strictEqual(decodeTokenText(stringToHex("Maker ünïcode", { size: 32 })), "Maker ünïcode")
    assert.strictEqual(decodeTokenText(`0x${"00".repeat(32)}`), "")
    assert.strictEqual(decodeTokenText("0x"), null)
    assert.strictEqual(decodeTokenText("0x1234"), null)
    assert.strictEqual(decodeTokenText(`0x${"ff".repeat(64)}`), null)
    // NUL inside a string cannot be stored in PostgreSQL text: removed.
    assert.strictEqual(decodeTokenText(encodeAbiParameters([{ type: "string" }], ["A\u0000B"])), "AB")
  })
})

const chainId = 31337

layer(QuoteServices({ timeoutMs: 5000 }), { timeout: "180 seconds", excludeTestServices: true })(
  "unusual token metadata on the chain",
  (it) => {
    it.effect("bytes32 name/symbol are decoded; no decimals() → decimals null, no prices, quotes refused", () =>
      Effect.gen(function* () {
        const chain = yield* AnvilChain
        const sql = yield* SqlClient.SqlClient
        const account = chain.accounts[7]!
        const launch = chain.deployments.launches.find((l) => l.canonical && !l.graduated)!
        const deploy = (abi: any, bytecode: `0x${string}`, args: ReadonlyArray<unknown>) =>
          Effect.promise(() => chain.sender.deploy(account, { abi, bytecode }, args))
        const mkr = yield* deploy(Bytes32MetadataTokenAbi, Bytes32MetadataTokenBytecode, [
          stringToHex("Maker", { size: 32 }),
          stringToHex("MKR", { size: 32 }),
          parseEther("1000000000000"),
          account.address
        ])
        const nodec = yield* deploy(NoDecimalsTokenAbi, NoDecimalsTokenBytecode, [
          "No Decimals",
          "NODEC",
          parseEther("1000000000000"),
          account.address
        ])
        yield* buyWithWeth(account, launch.token, launch.fee, parseEther("2"))
        const half = (yield* balanceOf(launch.token, account.address)) / 4n
        yield* createPool(account, mkr as Address, launch.token, half)
        yield* createPool(account, nodec as Address, launch.token, half)
        yield* indexedHead

        const rows = yield* sql<{ address: string; name: string; symbol: string; decimals: number | null }>`
          SELECT address, name, symbol, decimals FROM tokens
          WHERE chain_id = ${chainId} AND address IN ${sql.in([mkr.toLowerCase(), nodec.toLowerCase()])}`
        const byAddress = new Map(rows.map((r) => [r.address, r]))
        assert.deepInclude(byAddress.get(mkr.toLowerCase()), { name: "Maker", symbol: "MKR", decimals: 18 })
        assert.deepInclude(byAddress.get(nodec.toLowerCase()), { name: "No Decimals", symbol: "NODEC", decimals: null })

        // The exchange's token pages: the bytes32 symbol shows; the token without decimals has null decimals and no
        // USD values (its amounts have no scale).
        const pools = (yield* exchange("/api/v1/pools/list?limit=200")).body.items as Array<any>
        const nodecPool = pools.find((p) => [p.token0.address, p.token1.address].includes(nodec.toLowerCase()))
        assert.isDefined(nodecPool, "the pool of the token without decimals is indexed")
        const side = nodecPool.token0.address === nodec.toLowerCase() ? nodecPool.token0 : nodecPool.token1
        assert.isNull(side.decimals)
        assert.isNull(side.priceUsd ?? null)
        const ticks = (yield* exchange(`/api/v1/pools/${nodecPool.poolId}/ticks`)).body
        assert.isAtLeast(ticks.ticks.length, 2, JSON.stringify(ticks))
        for (const t of ticks.ticks) assert.isNull(t.price0, "no price at a tick without the token's scale")
        const mkrPool = pools.find((p) => [p.token0.address, p.token1.address].includes(mkr.toLowerCase()))
        const mkrSide = mkrPool.token0.address === mkr.toLowerCase() ? mkrPool.token0 : mkrPool.token1
        assert.strictEqual(mkrSide.symbol, "MKR")

        // Quotes: the bytes32 token routes (through its launch-token pool); the token without decimals is refused in
        // either direction, although its pool is indexed.
        const quote = (tokenIn: string, tokenOut: string) =>
          exchange(
            `/api/v1/quote?${query({ chainId, tokenInAddress: tokenIn, tokenOutAddress: tokenOut, amount: "1000000000000", recipient: account.address })}`
          )
        const mkrQuote = yield* quote(launch.token, mkr)
        assert.strictEqual(mkrQuote.status, 200, JSON.stringify(mkrQuote.body))
        for (const [a, b] of [
          [launch.token, nodec],
          [nodec, launch.token]
        ] as const) {
          const refused = yield* quote(a, b)
          assert.strictEqual(refused.body.code, "TOKEN_DECIMALS_FETCH_FAILED", JSON.stringify(refused.body))
        }
      })
    )

    it.effect(
      "a fee-on-transfer token is detected by a simulated transfer and refused: FEE_ON_TRANSFER_UNSUPPORTED",
      () =>
        Effect.gen(function* () {
          const chain = yield* AnvilChain
          const account = chain.accounts[8]!
          const c = chain.deployments.contracts
          const launch = chain.deployments.launches.find((l) => l.canonical && !l.graduated)!
          // 2 % burned on every transfer.
          const fot = yield* Effect.promise(() =>
            chain.sender.deploy(account, { abi: FeeOnTransferTokenAbi, bytecode: FeeOnTransferTokenBytecode }, [
              "Taxed",
              "TAX",
              200n,
              parseEther("1000000000000"),
              account.address
            ])
          )
          yield* buyWithWeth(account, launch.token, launch.fee, parseEther("2"))
          yield* createPool(
            account,
            fot as Address,
            launch.token,
            (yield* balanceOf(launch.token, account.address)) / 2n
          )
          yield* indexedHead
          const quote = (tokenIn: string, tokenOut: string) =>
            exchange(
              `/api/v1/quote?${query({ chainId, tokenInAddress: tokenIn, tokenOutAddress: tokenOut, amount: "1000000000000", recipient: account.address })}`
            )
          // The same pool shape with a plain token routes (launch token <-> WETH <-> stablecoin still quote).
          assert.strictEqual((yield* quote(c.weth9, launch.token)).status, 200)
          for (const [a, b] of [
            [launch.token, fot],
            [fot, launch.token],
            [fot, c.weth9]
          ] as const) {
            const refused = yield* quote(a, b)
            assert.strictEqual(refused.status, 400, JSON.stringify(refused.body))
            assert.strictEqual(refused.body.code, "FEE_ON_TRANSFER_UNSUPPORTED")
            assert.deepStrictEqual(refused.body.details.tokens, [{ address: fot.toLowerCase(), feeBps: 200 }])
          }
        })
    )
  }
)
