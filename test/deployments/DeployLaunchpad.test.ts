import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { execFile } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { parseEther } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { FireTokenAbi, FireTokenBytecode } from "../../contracts/generated/index.ts"
import { readDeploymentsSync, writeDeploymentsSync } from "../../layers/Deployments.ts"
import { deployUniswap } from "../../scripts/devnet/uniswap.ts"
import { tinyPng } from "../mcp/support.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { type ServiceProcess, startServiceProcess } from "../support/ServiceProcess.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { fetchJson } from "../support/TestServer.ts"

/**
 * `npm run deploy:launchpad` on a fresh anvil that has only Uniswap v3 (deployed by the devnet's own stage 1) and a
 * stablecoin: the script deploys the launchpad and writes the deployments file; the app started on it (RPC_URL +
 * DEPLOYMENTS_FILE, one real process) takes a launch end to end through the `fire-api` CLI.
 */
const root = NodePath.resolve(import.meta.dirname, "../..")
const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "deploy-launchpad-"))
const dexFile = NodePath.join(dir, "dex.json")
const fullFile = NodePath.join(dir, "with-launchpad.json")
const deployerKey = generatePrivateKey()

const exec = (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.promise(
    () =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          command,
          args,
          { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr })
        )
      )
  )

const deployLaunchpad = (extra: ReadonlyArray<string> = []) =>
  Effect.flatMap(AnvilChain, (anvil) =>
    exec("npm", [
      "run",
      "--silent",
      "deploy:launchpad",
      "--",
      "--rpc-url",
      anvil.rpcUrl,
      "--private-key",
      deployerKey,
      "--deployments",
      dexFile,
      "--out",
      fullFile,
      ...extra
    ])
  )

/** The DEX-only chain: Uniswap v3 + a stablecoin, and its deployments file without a launchpad. */
const DexChain = Layer.effectDiscard(
  Effect.gen(function* () {
    const anvil = yield* AnvilChain
    const deployer = anvil.accounts[0]!
    const uniswap = yield* Effect.promise(() => deployUniswap(anvil.sender, deployer, () => {}))
    const stablecoin = yield* Effect.promise(() =>
      anvil.sender.deploy(deployer, { abi: FireTokenAbi, bytecode: FireTokenBytecode }, [
        "Test USD",
        "TUSD",
        parseEther("1000000"),
        deployer.address
      ])
    )
    const { poolInitCodeHash: _hash, ...contracts } = uniswap
    writeDeploymentsSync(dexFile, {
      chainId: anvil.chainId,
      startBlock: 0,
      contracts: { ...contracts, stablecoin },
      launches: []
    })
    yield* Effect.promise(() =>
      anvil.sender.send(deployer, { to: privateKeyToAccount(deployerKey).address, value: parseEther("10") })
    )
  })
).pipe(Layer.provideMerge(AnvilChain.layerWith({ state: "empty" })))

class App extends Context.Service<App, ServiceProcess>()("test/deployments/DeployLaunchpad/App") {}

layer(Layer.mergeAll(DexChain, TestDatabase), { timeout: "240 seconds", excludeTestServices: true })(
  "deploy:launchpad",
  (it) => {
    it.effect(
      "deploys on a chain with only Uniswap, writes the file; the app on it takes a launch; a second run is refused",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const deployed = yield* deployLaunchpad()
          assert.strictEqual(deployed.code, 0, deployed.stderr)
          const file = readDeploymentsSync(fullFile)
          const launchpad = file.launchpad!
          assert.isDefined(launchpad, "the written file has a launchpad")
          assert.deepStrictEqual(file.contracts, readDeploymentsSync(dexFile).contracts, "the DEX part is kept")
          assert.strictEqual(file.startBlock, launchpad.deployedAtBlock)
          for (const address of [launchpad.fireRegistry, launchpad.fireLaunch, launchpad.fuelVault]) {
            const code = yield* Effect.promise(() => anvil.publicClient.getCode({ address }))
            assert.isTrue(code !== undefined && code.length > 2, `code at ${address}`)
          }
          // The first launchpad transaction is at startBlock: nothing of it before.
          const before = yield* Effect.promise(() =>
            anvil.publicClient.getCode({ address: launchpad.fireRegistry, blockNumber: BigInt(file.startBlock - 1) })
          )
          assert.isTrue(before === undefined || before === "0x")

          const again = yield* deployLaunchpad(["--deployments", fullFile])
          assert.notStrictEqual(again.code, 0)
          assert.match(again.stderr, /already has a launchpad/)

          // The app on that file: a launch through the CLI (draft, image, ignite, submit) completes.
          const app = yield* startServiceProcess(["client", "exchange", "indexer"], {
            DEPLOYMENTS_FILE: fullFile,
            INDEXER_POLL_MS: "100"
          })
          const home = NodeFs.mkdtempSync(NodePath.join(dir, "cli-"))
          const image = NodePath.join(home, "logo.png")
          NodeFs.writeFileSync(image, yield* tinyPng())
          const key = generatePrivateKey()
          yield* Effect.promise(() =>
            anvil.sender.send(anvil.accounts[0]!, { to: privateKeyToAccount(key).address, value: parseEther("5") })
          )
          const env = {
            FIRE_API_HOME: home,
            FIRE_CLIENT_URL: app.urls.client!,
            FIRE_RPC_URL: anvil.rpcUrl,
            FIRE_DEPLOYMENTS: fullFile,
            FIRE_CHAIN_ID: String(anvil.chainId)
          }
          const cli = NodePath.join(root, "bin/fire-api.js")
          const login = yield* exec(process.execPath, [cli, "login", "--key", key], env)
          assert.strictEqual(login.code, 0, login.stderr)
          const launched = yield* exec(
            process.execPath,
            [
              cli,
              "launch",
              "--key",
              key,
              "--name",
              "Real Chain",
              "--symbol",
              "REAL",
              "--category",
              "meme",
              "--image",
              image
            ],
            env
          )
          assert.strictEqual(launched.code, 0, launched.stderr)
          assert.match(launched.stderr, /✓ launch \S+ COMPLETED: token 0x[0-9a-fA-F]{40}/)
          // Launch routes are served (not 503) on this chain.
          const pending = yield* fetchJson(`${app.urls.client}/v1/launch/pending`)
          assert.strictEqual(pending.status, 401, JSON.stringify(pending.body))
        }),
      { timeout: 240_000 }
    )
  }
)
