import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { parseEther } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { FLOW_STEPS, runAgentFlow } from "../../scripts/agent-flow.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { baseUrl } from "../support/TestServer.ts"
import { AgentServers, tinyPng } from "./support.ts"

/**
 * scripts/agent-flow.ts against the four services on the seeded devnet: an agent with a fresh private key (funded by a
 * devnet account), a partner key for the quote tools (the server has keys configured, so none would be refused), and
 * the official MCP SDK client on both /mcp endpoints. Every step of the list must pass.
 */
const PARTNER_KEY = "fq_agent_flow_partner_key_0123456789abcdef"

const servers = AgentServers(
  {
    FINALITY_DEPTH: "1",
    NOTIFY_CHAIN_POLL_MS: "100",
    INDEXER_POLL_MS: "100",
    QUOTE_API_KEYS: `agents:${PARTNER_KEY}`,
    QUOTE_TIMEOUT: "5000",
    QUOTE_WORKERS: "1"
  },
  ["client", "exchange", "search", "indexer"]
)

layer(servers, { timeout: "240 seconds", excludeTestServices: true })(
  "the agent flow (scripts/agent-flow.ts)",
  (it) => {
    it.effect(
      "sign in, quote + swap, launch with metadata, buy, comment, tip (SelfGiftNotAllowed), sweep, graduation, notifications",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const faucet = anvil.accounts[0]!
          const tipper = anvil.accounts[4]!
          const key = generatePrivateKey()
          const agent = privateKeyToAccount(key)
          yield* Effect.promise(() => anvil.sender.send(faucet, { to: agent.address, value: parseEther("10") }))
          const c = { ...anvil.deployments.contracts, ...anvil.deployments.launchpad! }
          const other = anvil.deployments.launches.find(
            (l) => l.canonical && !l.graduated && l.creator !== agent.address
          )!
          const clientUrl = yield* baseUrl("client")
          const exchangeUrl = yield* baseUrl("exchange")
          const image = yield* tinyPng()
          const steps = yield* Effect.promise(() =>
            runAgentFlow({
              clientUrl,
              exchangeUrl,
              rpcUrl: anvil.rpcUrl,
              chainId: anvil.chainId,
              privateKey: key,
              apiKey: PARTNER_KEY,
              contracts: {
                fireLaunch: c.fireLaunch,
                fireRegistry: c.fireRegistry,
                fuelVault: c.fuelVault,
                fireGraduator: c.fireGraduator,
                weth9: c.weth9
              },
              otherToken: other.token,
              image,
              tipAgentToken: async (token) => {
                await anvil.sender.write(tipper, c.fuelVault, FuelVaultAbi, "give", [token], parseEther("0.02"))
              },
              settle: () => anvil.mine(1),
              advanceTime: (seconds) => anvil.increaseTime(seconds)
            })
          )
          assert.deepStrictEqual(steps, [...FLOW_STEPS])
        }),
      300_000
    )
  }
)
