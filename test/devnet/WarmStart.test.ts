import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import type { Address } from "viem"
import { rpcRequest, startAnvil } from "../../layers/Anvil.ts"
import { ChainLiveWith, type ChainSettings } from "../../layers/Chain.ts"
import { Chain } from "../../src/platform/Chain.ts"
import { erc20Abi, poolAbi } from "../../scripts/devnet/abis.ts"
import { type Devnet, startDevnet } from "../../scripts/devnet/devnet.ts"
import { makePublicClient } from "../../layers/PublicClient.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** What a restart must give back: addresses, chain head, a pool's price, balances. */
const observe = async (devnet: Devnet) => {
  const { deployments, anvil } = devnet
  const client = makePublicClient(anvil.chainId, anvil.rpcUrl)
  const embr = deployments.launches.find((l) => l.symbol === "EMBR")!
  const holder = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" as Address // account 5, traded in the seed
  const head = await client.getBlock()
  return {
    contracts: deployments.contracts,
    launches: deployments.launches,
    startBlock: deployments.startBlock,
    head: { number: head.number, hash: head.hash, timestamp: head.timestamp },
    slot0: await client.readContract({ address: embr.pool, abi: poolAbi, functionName: "slot0" }),
    tokenBalance: await client.readContract({
      address: embr.token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [holder]
    }),
    ethBalance: await client.getBalance({ address: holder })
  }
}

describe("devnet cold and warm start", () => {
  const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-devnet-warm-"))
  const settings: ChainSettings = {
    rpcUrl: Option.none(),
    deploymentsFile: Option.none(),
    devnetPort: 0,
    dataDir
  }
  afterAll(() => NodeFs.rmSync(dataDir, { recursive: true, force: true }))

  it.effect(
    "a warm start restores the deployed and seeded chain: same addresses, same state, same head",
    () =>
      Effect.gen(function* () {
        const cold = yield* promise(() => startDevnet({ dataDir, port: 0 }))
        const before = yield* promise(() => observe(cold)).pipe(Effect.ensuring(promise(() => cold.anvil.stop())))
        assert.strictEqual(cold.start, "cold")
        assert.isTrue(NodeFs.existsSync(NodePath.join(dataDir, "devnet", "state.json")))
        assert.isTrue(NodeFs.existsSync(NodePath.join(dataDir, "devnet", "deployments.json")))

        const warm = yield* promise(() => startDevnet({ dataDir, port: 0 }))
        const after = yield* promise(() => observe(warm))
        // The seed advanced time past a one-hour grace period: without realigning the clock on load, the next
        // block would be stamped with the wall clock, before its parent.
        yield* promise(() => rpcRequest(warm.anvil.rpcUrl, "evm_mine"))
        const next = yield* promise(() => makePublicClient(warm.anvil.chainId, warm.anvil.rpcUrl).getBlock())
        yield* promise(() => warm.anvil.stop())

        assert.strictEqual(warm.start, "warm")
        assert.deepStrictEqual(after, before)
        assert.isTrue(next.timestamp > before.head.timestamp)
        assert.isBelow(warm.timings.anvilReadyMs, 1_000)
      }),
    { timeout: 60_000 }
  )

  it.effect(
    "Chain layer without RPC_URL: a devnet owned by the layer, stopped when its scope closes",
    () =>
      Effect.gen(function* () {
        const seen = yield* Effect.gen(function* () {
          const chain = yield* Chain
          const code = yield* promise(() =>
            chain.publicClient.getCode({ address: chain.deployments.launchpad!.fireLaunch })
          )
          return { mode: chain.mode, chainId: chain.chainId, rpcUrl: chain.rpcUrl, hasCode: (code?.length ?? 0) > 2 }
        }).pipe(Effect.provide(ChainLiveWith(settings)))
        assert.deepInclude(seen, { mode: "devnet", chainId: 31337, hasCode: true })
        const stillUp = yield* promise(() =>
          rpcRequest(seen.rpcUrl, "eth_chainId").then(
            () => true,
            () => false
          )
        )
        assert.isFalse(stillUp)
      }),
    { timeout: 60_000 }
  )

  it.effect(
    "Chain layer with RPC_URL: reads DEPLOYMENTS_FILE; refuses a chain id that differs or a missing file",
    () =>
      Effect.gen(function* () {
        // A devnet saved in a directory of this test's own (not the first test's), so that this test runs alone.
        const ownDir = NodePath.join(dataDir, "external-source")
        const saved = yield* promise(() => startDevnet({ dataDir: ownDir, port: 0 }))
        yield* promise(() => saved.anvil.stop())
        const deploymentsFile = NodePath.join(ownDir, "devnet", "deployments.json")
        const state = NodePath.join(ownDir, "devnet", "state.json")
        const anvil = yield* promise(() => startAnvil({ dataDir: NodePath.join(dataDir, "ext"), loadState: state }))
        const other = yield* promise(() => startAnvil({ dataDir: NodePath.join(dataDir, "ext2"), chainId: 1337 }))
        yield* Effect.addFinalizer(() => promise(() => Promise.all([anvil.stop(), other.stop()])))
        const external = (rpcUrl: string, file: Option.Option<string>) =>
          ChainLiveWith({ ...settings, rpcUrl: Option.some(rpcUrl), deploymentsFile: file })

        const chain = yield* Effect.provide(Chain, external(anvil.rpcUrl, Option.some(deploymentsFile)))
        assert.strictEqual(chain.mode, "external")
        assert.strictEqual(chain.rpcUrl, anvil.rpcUrl)
        assert.isAbove(chain.deployments.launches.length, 0)

        const mismatch = yield* Effect.exit(Effect.provide(Chain, external(other.rpcUrl, Option.some(deploymentsFile))))
        assert.isTrue(Exit.isFailure(mismatch))
        assert.match(String(Exit.isFailure(mismatch) ? mismatch.cause : ""), /serves chain id 1337.*chain id 31337/)

        const missing = yield* Effect.exit(Effect.provide(Chain, external(anvil.rpcUrl, Option.none())))
        assert.match(String(Exit.isFailure(missing) ? missing.cause : ""), /DEPLOYMENTS_FILE/)

        const bad = NodePath.join(dataDir, "bad.json")
        NodeFs.writeFileSync(bad, JSON.stringify({ chainId: 31337, contracts: { weth9: "0x12" } }))
        const invalid = yield* Effect.exit(Effect.provide(Chain, external(anvil.rpcUrl, Option.some(bad))))
        assert.match(String(Exit.isFailure(invalid) ? invalid.cause : ""), /invalid deployments file/)
      }).pipe(Effect.scoped),
    { timeout: 60_000 }
  )
})
