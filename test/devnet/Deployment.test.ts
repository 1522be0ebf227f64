import { assert, layer } from "@effect/vitest"
import type * as SdkCore from "@uniswap/sdk-core"
import type * as V3Sdk from "@uniswap/v3-sdk"
import { Effect } from "effect"
import { createRequire } from "node:module"
import { type Address, getAddress } from "viem"
import { FireGraduatorAbi, FireLaunchAbi } from "../../contracts/generated/index.ts"
import { artifacts, poolInitCodeHash } from "../../scripts/devnet/artifacts.ts"
import { factoryAbi, poolAbi } from "../../scripts/devnet/abis.ts"
import { AnvilChain } from "../support/AnvilChain.ts"

// The SDKs are CommonJS (ethers 5): load them the way the backend does.
const require = createRequire(import.meta.url)
const { computePoolAddress } = require("@uniswap/v3-sdk") as typeof V3Sdk
const { Token } = require("@uniswap/sdk-core") as typeof SdkCore

const CANONICAL_POOL_INIT_CODE_HASH = "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54"

layer(AnvilChain.layer, { timeout: "60 seconds" })("devnet deployment (seeded state)", (it) => {
  it.effect("has code at every address of deployments.json", () =>
    Effect.gen(function* () {
      const { publicClient, deployments } = yield* AnvilChain
      const addresses: Array<[string, Address]> = [
        ...Object.entries({ ...deployments.contracts, ...deployments.launchpad }).filter(
          (entry): entry is [string, Address] => typeof entry[1] === "string"
        ),
        ...deployments.launches.flatMap(
          (l): Array<[string, Address]> => [
            [`${l.symbol} token`, l.token],
            [`${l.symbol} pool`, l.pool]
          ]
        )
      ]
      assert.isAtLeast(addresses.length, 16 + 2 * 4)
      for (const [name, address] of addresses) {
        const code = yield* Effect.promise(() => publicClient.getCode({ address }))
        assert.isTrue(code !== undefined && code.length > 2, `no code at ${name} ${address}`)
      }
    })
  )

  it.effect("the pool init code hash of the deployed pool bytecode is the canonical one (v3-core 1.0.1)", () =>
    Effect.gen(function* () {
      const { deployments } = yield* AnvilChain
      assert.strictEqual(poolInitCodeHash(), CANONICAL_POOL_INIT_CODE_HASH)
      // The factory's runtime code embeds the pool creation code it deploys with CREATE2.
      const { publicClient } = yield* AnvilChain
      const factoryCode = yield* Effect.promise(() => publicClient.getCode({ address: deployments.contracts.factory }))
      assert.include(factoryCode!, artifacts.pool().bytecode.slice(2, 2 + 2_000))
    })
  )

  it.effect("every seeded pool is at the SDK-computed address, which is the factory's getPool", () =>
    Effect.gen(function* () {
      const { publicClient, deployments, chainId } = yield* AnvilChain
      const pools = deployments.pools ?? []
      assert.isAtLeast(pools.length, 6) // USDT/WETH + 5 launches
      for (const pool of pools) {
        const computed = computePoolAddress({
          factoryAddress: deployments.contracts.factory,
          tokenA: new Token(chainId, pool.token0, 18),
          tokenB: new Token(chainId, pool.token1, 18),
          fee: pool.fee,
          initCodeHashManualOverride: CANONICAL_POOL_INIT_CODE_HASH
        })
        const fromFactory = yield* Effect.promise(() =>
          publicClient.readContract({
            address: deployments.contracts.factory,
            abi: factoryAbi,
            functionName: "getPool",
            args: [pool.token1, pool.token0, pool.fee] // either order
          })
        )
        assert.strictEqual(getAddress(computed), pool.address)
        assert.strictEqual(fromFactory, pool.address)
        const [token0, token1] = yield* Effect.promise(() =>
          Promise.all([
            publicClient.readContract({ address: pool.address, abi: poolAbi, functionName: "token0" }),
            publicClient.readContract({ address: pool.address, abi: poolAbi, functionName: "token1" })
          ])
        )
        assert.deepStrictEqual([token0, token1], [pool.token0, pool.token1])
      }
    })
  )

  it.effect("launches match FireLaunch: creator, pool, canonical flag; one graduated, one non-canonical", () =>
    Effect.gen(function* () {
      const { publicClient, deployments } = yield* AnvilChain
      const { fireLaunch, fireGraduator } = deployments.launchpad!
      for (const launch of deployments.launches) {
        const read = <T>(p: Promise<T>) => Effect.promise(() => p)
        const creator = yield* read(
          publicClient.readContract({
            address: fireLaunch,
            abi: FireLaunchAbi,
            functionName: "creatorOf",
            args: [launch.token]
          })
        )
        const pool = yield* read(
          publicClient.readContract({
            address: fireLaunch,
            abi: FireLaunchAbi,
            functionName: "poolOf",
            args: [launch.token]
          })
        )
        const canonical = yield* read(
          publicClient.readContract({
            address: fireLaunch,
            abi: FireLaunchAbi,
            functionName: "isCanonical",
            args: [launch.token]
          })
        )
        const graduated = yield* read(
          publicClient.readContract({
            address: fireGraduator,
            abi: FireGraduatorAbi,
            functionName: "isGraduated",
            args: [launch.token]
          })
        )
        assert.deepStrictEqual(
          { creator, pool, canonical, graduated },
          {
            creator: launch.creator,
            pool: launch.pool,
            canonical: launch.canonical,
            graduated: launch.graduated
          }
        )
      }
      assert.strictEqual(deployments.launches.filter((l) => l.graduated).length, 1)
      assert.strictEqual(deployments.launches.filter((l) => !l.canonical).length, 1)
    })
  )
})
