import { Context, Effect, Layer } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import {
  type Chain as ViemChain,
  createWalletClient,
  type Hex,
  http,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient
} from "viem"
import { inject } from "vitest"
import { type AnvilInstance, rpcRequest, startAnvil } from "../../layers/Anvil.ts"
import { Chain } from "../../src/platform/Chain.ts"
import { readDeploymentsSync } from "../../layers/Deployments.ts"
import { type Deployments, emptyDeployments } from "../../src/platform/Deployments.ts"
import { devnetAccounts, makeSender, type Sender } from "../../scripts/devnet/tx.ts"

/**
 * A fresh anvil for one test file, started from the deployed and seeded devnet state that the global setup
 * (test/setup/devnet.ts) built once for the run. Its accounts are anvil's public test keys.
 */

/** A transaction for `reorg`: a signed raw transaction, or a request from one of anvil's unlocked accounts. */
export type ReorgTransaction =
  | Hex
  | { readonly from: Hex; readonly to?: Hex; readonly data?: Hex; readonly value?: Hex }

export interface ReplacedBlock {
  readonly number: bigint
  readonly before: Hex
  readonly after: Hex
}

export interface AnvilChainShape {
  readonly rpcUrl: string
  readonly chainId: number
  readonly deployments: Deployments
  readonly publicClient: PublicClient
  /** anvil's ten funded accounts (public test keys), index 0 deployed everything. */
  readonly accounts: ReadonlyArray<LocalAccount>
  /** One viem wallet client per account. Prefer `sender` for sending: it pads gas and polls for receipts. */
  readonly wallets: ReadonlyArray<WalletClient<Transport, ViemChain, LocalAccount>>
  /** send / write / deploy one transaction at a time, waiting for a successful receipt. */
  readonly sender: Sender
  readonly blockNumber: () => Promise<bigint>
  /** Mines `blocks` empty blocks (default 1). */
  readonly mine: (blocks?: number) => Promise<void>
  /** Moves the clock forward and mines one block with the new time (so `latest` reads see it). */
  readonly increaseTime: (seconds: number) => Promise<void>
  readonly snapshot: () => Promise<Hex>
  /** Returns to a snapshot (blocks after it are gone; a snapshot id can be used once). */
  readonly revert: (id: Hex) => Promise<void>
  /**
   * Replaces the last `depth` blocks with new ones (anvil_reorg): their hashes change and their transactions are
   * dropped (not back in the mempool). `transactions` are put into the new blocks: `[tx, offset]`, offset 0 = the
   * first replaced height; pass a dropped transaction's raw bytes to move it to another block.
   */
  readonly reorg: (
    depth: number,
    transactions?: ReadonlyArray<readonly [ReorgTransaction, number]>
  ) => Promise<ReadonlyArray<ReplacedBlock>>
  readonly stop: () => Promise<void>
}

export interface AnvilChainOptions {
  /** "seeded" (default): the deployed and seeded devnet; "empty": a bare anvil (no contracts, no deployments). */
  readonly state?: "seeded" | "empty"
}

/** Plain version, for tests that do not use Effect (call inside a vitest file: it reads the global setup). */
export const startAnvilChain = async (options: AnvilChainOptions = {}): Promise<AnvilChainShape> => {
  const seeded = (options.state ?? "seeded") === "seeded"
  const deployments = seeded ? readDeploymentsSync(inject("devnetDeploymentsFile")) : undefined
  const home = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-anvil-test-"))
  let anvil: AnvilInstance
  try {
    anvil = await startAnvil({
      dataDir: home,
      port: 0,
      ...(deployments === undefined ? {} : { chainId: deployments.chainId, loadState: inject("devnetStateFile") })
    })
  } catch (error) {
    NodeFs.rmSync(home, { recursive: true, force: true })
    throw error
  }
  const { rpcUrl, chainId } = anvil
  const sender = makeSender(chainId, rpcUrl)
  const accounts = devnetAccounts()
  const rpc = <A>(method: string, params: ReadonlyArray<unknown> = []) => rpcRequest<A>(rpcUrl, method, params)
  const blockHash = async (n: bigint) =>
    (await rpc<{ hash: Hex }>("eth_getBlockByNumber", [`0x${n.toString(16)}`, false])).hash

  return {
    rpcUrl,
    chainId,
    deployments: deployments === undefined ? emptyDeployments(chainId) : { ...deployments, rpcUrl },
    publicClient: sender.publicClient,
    accounts,
    wallets: accounts.map((account) =>
      createWalletClient({ account, chain: sender.chain, transport: http(rpcUrl, { retryCount: 0 }) })
    ),
    sender,
    blockNumber: async () => BigInt(await rpc<Hex>("eth_blockNumber")),
    mine: async (blocks = 1) => {
      await rpc("anvil_mine", [`0x${blocks.toString(16)}`])
    },
    increaseTime: async (seconds) => {
      await rpc("evm_increaseTime", [seconds])
      await rpc("evm_mine")
    },
    snapshot: () => rpc<Hex>("evm_snapshot"),
    revert: async (id) => {
      if (!(await rpc<boolean>("evm_revert", [id]))) throw new Error(`evm_revert: unknown snapshot ${id}`)
    },
    reorg: async (depth, transactions = []) => {
      const head = BigInt(await rpc<Hex>("eth_blockNumber"))
      if (depth < 1 || BigInt(depth) > head) throw new Error(`reorg depth ${depth} with head at ${head}`)
      const heights = Array.from({ length: depth }, (_, i) => head - BigInt(depth) + 1n + BigInt(i))
      const before = await Promise.all(heights.map(blockHash))
      await rpc("anvil_reorg", [depth, transactions.map(([tx, offset]) => [tx, offset])])
      const after = await Promise.all(heights.map(blockHash))
      return heights.map((number, i) => ({ number, before: before[i]!, after: after[i]! }))
    },
    stop: async () => {
      await anvil.stop()
      NodeFs.rmSync(home, { recursive: true, force: true })
    }
  }
}

/** The anvil of a test file as an Effect service: `layer(AnvilChain.layer)("…", (it) => …)`. */
export class AnvilChain extends Context.Service<AnvilChain, AnvilChainShape>()("test/support/AnvilChain") {
  static readonly layerWith = (options: AnvilChainOptions): Layer.Layer<AnvilChain> =>
    Layer.effect(
      AnvilChain,
      Effect.acquireRelease(
        Effect.promise(() => startAnvilChain(options)),
        (chain) => Effect.promise(chain.stop)
      )
    )
  static readonly layer: Layer.Layer<AnvilChain> = AnvilChain.layerWith({})
  /** The app's `Chain` service (mode "devnet") over this file's anvil, with `AnvilChain` for the test's own moves. */
  static readonly chainLayer: Layer.Layer<Chain | AnvilChain> = Layer.effect(
    Chain,
    Effect.map(AnvilChain, (chain) =>
      Chain.of({
        chainId: chain.chainId,
        rpcUrl: chain.rpcUrl,
        publicClient: chain.publicClient,
        deployments: chain.deployments,
        mode: "devnet"
      })
    )
  ).pipe(Layer.provideMerge(AnvilChain.layer))
}
