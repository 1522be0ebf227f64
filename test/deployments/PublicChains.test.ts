import { assert, describe, it } from "@effect/vitest"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { getAddress } from "viem"
import { base, mainnet } from "viem/chains"
import { readDeploymentsSync } from "../../layers/Deployments.ts"
import { deploymentAddresses } from "../../src/platform/Deployments.ts"

/**
 * deployments/ethereum.json and deployments/base.json (sources per address in deployments/README.md): they decode
 * with the app's schema, have no launchpad part, every address is EIP-55 checksummed, and every address that an
 * installed Uniswap SDK or viem's chain table also carries is the same one there (a second, independent source).
 */
const require = createRequire(import.meta.url)
const sdk = require("@uniswap/sdk-core") as {
  readonly V3_CORE_FACTORY_ADDRESSES: Record<number, string>
  readonly NONFUNGIBLE_POSITION_MANAGER_ADDRESSES: Record<number, string>
  readonly TICK_LENS_ADDRESSES: Record<number, string | undefined>
  readonly QUOTER_ADDRESSES: Record<number, string>
  readonly SWAP_ROUTER_02_ADDRESSES: (chainId: number) => string
  readonly WETH9: Record<number, { readonly address: string }>
}
const routerSdk = require("@uniswap/universal-router-sdk") as {
  readonly UNIVERSAL_ROUTER_ADDRESS: (version: string, chainId: number) => string
  readonly UniversalRouterVersion: { readonly V2_0: string }
}

const root = NodePath.resolve(import.meta.dirname, "../..")
const files = [
  { file: "deployments/ethereum.json", chain: mainnet },
  { file: "deployments/base.json", chain: base }
] as const

const same = (actual: string, expected: string | undefined, what: string) => {
  assert.isDefined(expected, `${what}: the cross-check source has no entry`)
  assert.strictEqual(actual.toLowerCase(), expected!.toLowerCase(), what)
}

describe("public chain deployment files", () => {
  for (const { file, chain } of files) {
    it(`${file} decodes, has no launchpad, and is checksummed`, () => {
      const d = readDeploymentsSync(NodePath.join(root, file))
      assert.strictEqual(d.chainId, chain.id)
      assert.isUndefined(d.launchpad)
      assert.deepStrictEqual(d.launches, [])
      const addresses = [...deploymentAddresses(d), ...(d.stablecoins ?? []).map((s) => s.address)]
      assert.isAtLeast(addresses.length, 13)
      for (const address of addresses) assert.strictEqual(address, getAddress(address), `${file}: ${address}`)
      assert.strictEqual(new Set(addresses.map((a) => a.toLowerCase())).size, addresses.length, "no address twice")
    })

    it(`${file} agrees with @uniswap/sdk-core, @uniswap/universal-router-sdk and viem's chain table`, () => {
      const c = readDeploymentsSync(NodePath.join(root, file)).contracts
      const id = chain.id
      same(c.factory, sdk.V3_CORE_FACTORY_ADDRESSES[id], "factory")
      same(c.positionManager, sdk.NONFUNGIBLE_POSITION_MANAGER_ADDRESSES[id], "positionManager")
      same(c.swapRouter02, sdk.SWAP_ROUTER_02_ADDRESSES(id), "swapRouter02")
      same(c.weth9, sdk.WETH9[id]?.address, "weth9")
      same(c.universalRouter, routerSdk.UNIVERSAL_ROUTER_ADDRESS(routerSdk.UniversalRouterVersion.V2_0, id), "UR 2.0")
      same(c.multicall3!, chain.contracts.multicall3.address, "multicall3")
      // sdk-core lists QuoterV2 and TickLens for Base only (its mainnet "quoter" is the v1 Quoter).
      if (id === base.id) {
        same(c.quoterV2!, sdk.QUOTER_ADDRESSES[id], "quoterV2")
        same(c.tickLens!, sdk.TICK_LENS_ADDRESSES[id], "tickLens")
      }
    })
  }
})
