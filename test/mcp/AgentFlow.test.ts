import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { parseEther } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { runAgentFlow } from "../../scripts/agent-flow.ts"
import { AnvilChain } from "../layers/AnvilChain.ts"
import { baseUrl } from "../layers/TestServer.ts"
import { AgentServers, tinyPng } from "./support.ts"

/**
 * scripts/agent-flow.ts against the four services on the seeded devnet: an agent with a fresh private key (funded by a
 * devnet account) and the official MCP SDK client on both /mcp endpoints. Every step the build has tools for must
 * pass; the steps waiting for routes that have not landed are listed with the tools they need.
 */
const servers = AgentServers({ FINALITY_DEPTH: "1", NOTIFY_CHAIN_POLL_MS: "100", INDEXER_POLL_MS: "100" }, ["client", "exchange", "search", "indexer"])

layer(servers, { timeout: "240 seconds", excludeTestServices: true })("the agent flow (scripts/agent-flow.ts)", (it) => {
  it.effect("sign in, launch, buy, tip (SelfGiftNotAllowed on itself), sweep fees, graduation status, notifications", () =>
    Effect.gen(function*() {
      const anvil = yield* AnvilChain
      const faucet = anvil.accounts[0]!
      const tipper = anvil.accounts[4]!
      const key = generatePrivateKey()
      const agent = privateKeyToAccount(key)
      yield* Effect.promise(() => anvil.sender.send(faucet, { to: agent.address, value: parseEther("10") }))
      const c = anvil.deployments.contracts
      const other = anvil.deployments.launches.find((l) => l.canonical && !l.graduated && l.creator !== agent.address)!
      const image = yield* tinyPng()
      const clientUrl = yield* baseUrl("client")
      const exchangeUrl = yield* baseUrl("exchange")
      const results = yield* Effect.promise(() =>
        runAgentFlow({
          clientUrl,
          exchangeUrl,
          rpcUrl: anvil.rpcUrl,
          chainId: anvil.chainId,
          privateKey: key,
          contracts: { fireLaunch: c.fireLaunch, fuelVault: c.fuelVault, fireGraduator: c.fireGraduator, weth9: c.weth9, swapRouter02: c.swapRouter02 },
          otherToken: other.token,
          image,
          tipAgentToken: async (token) => {
            await anvil.sender.write(tipper, c.fuelVault, FuelVaultAbi, "give", [token], parseEther("0.02"))
          },
          settle: () => anvil.mine(2)
        })
      )
      const passed = results.filter((r) => r.status === "passed").map((r) => r.step)
      const missing = results.filter((r) => r.status === "missing")
      console.log(`agent flow: ${passed.length} steps passed; waiting for routes:\n  ${missing.map((m) => `${m.step} (${m.detail})`).join("\n  ")}`)
      for (const step of [
        "sign in (SIWE)",
        "launch on-chain (FireLaunch.ignite)",
        "launch metadata (draft, image, submit)",
        "buy the new token (second transaction)",
        "tip fuel (and SelfGiftNotAllowed on itself)",
        "sweep fees (FuelVault.withdraw)",
        "graduation status on chain",
        "notifications"
      ]) assert.include(passed, step)
      for (const m of missing) assert.match(m.detail, /^needs (app|dex)_/)
    }))
})
