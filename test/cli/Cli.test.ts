import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { baseUrl, fetchJson } from "../support/TestServer.ts"
import { type Address, parseEther, parseEventLogs } from "viem"
import { erc20Abi } from "../../scripts/devnet/abis.ts"
import { FireLaunchAbi } from "../../contracts/generated/index.ts"
import { writeDeploymentsSync } from "../../layers/Deployments.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { AgentServers, tinyPng } from "../mcp/support.ts"

const bin = NodePath.resolve(import.meta.dirname, "../../bin/fire-api.js")

const run = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.promise(
    () =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [bin, ...args],
          { env: { ...process.env, ...env }, timeout: 60_000 },
          (error, stdout, stderr) => resolve({ code: error ? Number((error as any).code ?? 1) : 0, stdout, stderr })
        )
      })
  )

/** Each test spawns several CLI processes, each a cold Node start (≈ 1 s quiet, 10–15 s seen at load 20+). */
const CLI_TEST_TIMEOUT = 300_000

/** Partner keys are configured, so the quote commands must send one (FIRE_API_KEY or --api-key). */
const PARTNER_KEY = "fq_cli_test_partner_key_0123456789abcdef"

const servers = AgentServers(
  {
    FINALITY_DEPTH: "1",
    INDEXER_POLL_MS: "100",
    QUOTE_API_KEYS: `cli:${PARTNER_KEY}`,
    QUOTE_TIMEOUT: "5000",
    QUOTE_WORKERS: "1"
  },
  ["client", "exchange", "indexer"]
)

layer(servers, { timeout: "180 seconds", excludeTestServices: true })("the fire-api CLI", (it) => {
  it.effect(
    "login --key signs in with SIWE and stores the session; status shows it; a bad key is a clear error",
    () =>
      Effect.gen(function* () {
        const home = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-cli-"))
        const env = {
          FIRE_API_HOME: home,
          FIRE_CLIENT_URL: yield* baseUrl("client"),
          FIRE_EXCHANGE_URL: yield* baseUrl("exchange")
        }
        const key = generatePrivateKey()
        const address = privateKeyToAccount(key).address

        const before = yield* run(["status"], env)
        assert.strictEqual(before.code, 0, before.stderr)
        assert.match(before.stdout, /session\s+none/)

        const login = yield* run(["login", "--key", key], env)
        assert.strictEqual(login.code, 0, login.stderr)
        assert.include(login.stderr, `signed in as ${address}`)
        const stored = JSON.parse(NodeFs.readFileSync(NodePath.join(home, "session.json"), "utf8"))
        assert.strictEqual(stored.address, address)
        assert.strictEqual(NodeFs.statSync(NodePath.join(home, "session.json")).mode & 0o777, 0o600)

        const after = yield* run(["status"], env)
        assert.strictEqual(after.code, 0, after.stderr)
        assert.match(after.stdout, new RegExp(`session\\s+${address}`))
        assert.match(after.stdout, /client\s+ok \(database up\)/)
        assert.match(after.stdout, /exchange\s+ok \(database up\)/)

        const bad = yield* run(["login", "--key", "0x1234"], env)
        assert.strictEqual(bad.code, 1)
        assert.include(bad.stderr, "--key takes a private key")
        NodeFs.rmSync(home, { recursive: true, force: true })
      }),
    CLI_TEST_TIMEOUT
  )

  it.effect(
    "bad usage is a clear error with exit code 2",
    () =>
      Effect.gen(function* () {
        const res = yield* run(["comment"], {})
        assert.strictEqual(res.code, 2)
        assert.include(res.stderr, "comment takes --token")
        const unknown = yield* run(["frobnicate"], {})
        assert.strictEqual(unknown.code, 2)
        assert.include(unknown.stderr, "unknown command frobnicate")
      }),
    CLI_TEST_TIMEOUT
  )

  it.effect(
    "launch (draft, image, ignite from the key's wallet, submit) and claim (typed data signed by the creator)",
    () =>
      Effect.gen(function* () {
        const anvil = yield* AnvilChain
        const home = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-cli-"))
        const deployments = NodePath.join(home, "deployments.json")
        writeDeploymentsSync(deployments, anvil.deployments)
        const image = NodePath.join(home, "logo.png")
        NodeFs.writeFileSync(image, yield* tinyPng())
        const key = generatePrivateKey()
        const account = privateKeyToAccount(key)
        yield* Effect.promise(() =>
          anvil.sender.send(anvil.accounts[0]!, { to: account.address, value: parseEther("5") })
        )
        const env = {
          FIRE_API_HOME: home,
          FIRE_CLIENT_URL: yield* baseUrl("client"),
          FIRE_RPC_URL: anvil.rpcUrl,
          FIRE_DEPLOYMENTS: deployments,
          FIRE_CHAIN_ID: String(anvil.chainId)
        }
        assert.strictEqual((yield* run(["login", "--key", key], env)).code, 0)

        const launched = yield* run(
          ["launch", "--key", key, "--name", "Cli Token", "--symbol", "CLI1", "--category", "meme", "--image", image],
          env
        )
        assert.strictEqual(launched.code, 0, launched.stderr)
        assert.match(launched.stderr, /✓ launch \S+ COMPLETED: token 0x[0-9a-fA-F]{40}/)
        const launchedToken = launched.stderr.match(/COMPLETED: token (0x[0-9a-fA-F]{40})/)![1]!

        // comment: post #1 on the new token's thread, a reply is #2; a bad reply id is refused before any request.
        const first = yield* run(["comment", "--token", launchedToken, "--text", "gm @nobody, first yap"], env)
        assert.strictEqual(first.code, 0, first.stderr)
        const posted = JSON.parse(first.stdout) as { id: number; postNumber: number }
        assert.strictEqual(posted.postNumber, 1)
        const reply = yield* run(
          ["comment", "--token", launchedToken, "--text", "and a reply", "--reply-to", String(posted.id)],
          env
        )
        assert.strictEqual(reply.code, 0, reply.stderr)
        assert.strictEqual(JSON.parse(reply.stdout).postNumber, 2)
        const badReply = yield* run(["comment", "--token", launchedToken, "--text", "x", "--reply-to", "abc"], env)
        assert.strictEqual(badReply.code, 1)
        assert.include(badReply.stderr, "--reply-to takes a comment id")

        // A token made without the API (ignite only) is claimed afterwards.
        const receipt = yield* Effect.promise(() =>
          anvil.sender.write(account, anvil.deployments.launchpad!.fireLaunch, FireLaunchAbi, "ignite", [
            "Claim Me",
            "CLM"
          ])
        )
        const token = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })[0]!.args.token
        let claimed = yield* run(["claim", "--key", key, "--token", token, "--image", image], env)
        for (
          let attempt = 0;
          attempt < 30 && claimed.code !== 0 && claimed.stderr.includes("TOKEN_NOT_FOUND");
          attempt++
        ) {
          yield* Effect.promise(() => anvil.mine(2)) // the listing appears once the indexer has the launch
          claimed = yield* run(["claim", "--key", key, "--token", token, "--image", image], env)
        }
        assert.strictEqual(claimed.code, 0, claimed.stderr)
        assert.include(claimed.stderr, `✓ claimed ${token}`)
        const again = yield* run(["claim", "--key", key, "--token", token], env)
        assert.strictEqual(again.code, 1)
        assert.match(again.stderr, /ALREADY_CLAIMED|already/i)
        NodeFs.rmSync(home, { recursive: true, force: true })
      }),
    CLI_TEST_TIMEOUT
  )

  it.effect(
    "quote (partner key, weth alias) and swap: wrap, approve, send, receipt, amounts; UniversalRouter through Permit2",
    () =>
      Effect.gen(function* () {
        const anvil = yield* AnvilChain
        const c = anvil.deployments.contracts
        const home = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-cli-"))
        const deployments = NodePath.join(home, "deployments.json")
        writeDeploymentsSync(deployments, anvil.deployments)
        const key = generatePrivateKey()
        const account = privateKeyToAccount(key)
        yield* Effect.promise(() =>
          anvil.sender.send(anvil.accounts[0]!, { to: account.address, value: parseEther("5") })
        )
        const token = anvil.deployments.launches.find((l) => l.canonical && !l.graduated)!.token as Address
        const exchangeUrl = yield* baseUrl("exchange")
        const env = {
          FIRE_API_HOME: home,
          FIRE_EXCHANGE_URL: exchangeUrl,
          FIRE_RPC_URL: anvil.rpcUrl,
          FIRE_DEPLOYMENTS: deployments,
          FIRE_CHAIN_ID: String(anvil.chainId),
          FIRE_API_KEY: PARTNER_KEY
        }
        const amount = parseEther("0.01").toString()
        // The quote engine routes over indexed pools: wait (bounded, mining) until it has them.
        const probe = `${exchangeUrl}/api/v1/quote?chainId=${anvil.chainId}&tokenInAddress=${c.weth9}&tokenOutAddress=${token}&amount=${amount}&recipient=${account.address}`
        let ready = yield* fetchJson(probe, { headers: { "x-api-key": PARTNER_KEY } })
        for (let attempt = 0; attempt < 60 && ready.status !== 200; attempt++) {
          yield* Effect.promise(() => anvil.mine(2))
          ready = yield* fetchJson(probe, { headers: { "x-api-key": PARTNER_KEY } })
        }
        assert.strictEqual(ready.status, 200, JSON.stringify(ready.body))

        const noKey = yield* run(
          ["quote", "--token-in", "weth", "--token-out", token, "--amount", amount, "--key", key, "--api-key", "wrong"],
          env
        )
        assert.strictEqual(noKey.code, 1)
        assert.include(noKey.stderr, "INVALID_API_KEY: Invalid API key")

        const quoted = yield* run(
          ["quote", "--token-in", "weth", "--token-out", token, "--amount", amount, "--key", key],
          env
        )
        assert.strictEqual(quoted.code, 0, quoted.stderr)
        const q = JSON.parse(quoted.stdout)
        assert.strictEqual(q.tokenIn.address.toLowerCase(), c.weth9.toLowerCase())
        assert.strictEqual(q.tokenOut.address.toLowerCase(), token.toLowerCase())
        assert.strictEqual(q.amountIn, amount)
        assert.isTrue(BigInt(q.amountOut) > 0n && BigInt(q.minimumAmountOut) <= BigInt(q.amountOut))
        assert.strictEqual(q.methodParameters.to.toLowerCase(), c.swapRouter02.toLowerCase())
        assert.match(q.methodParameters.calldata, /^0x[0-9a-f]+$/)
        assert.match(quoted.stderr, /✓ 10000000000000000 WETH → \d+ \S+ via /)

        const balance = (of: Address) =>
          Effect.promise(() =>
            anvil.publicClient.readContract({
              address: of,
              abi: erc20Abi,
              functionName: "balanceOf",
              args: [account.address]
            })
          )
        const swapped = yield* run(
          ["swap", "--key", key, "--token-in", "weth", "--token-out", token, "--amount", amount],
          env
        )
        assert.strictEqual(swapped.code, 0, swapped.stderr)
        assert.include(swapped.stderr, "→ wrapping 10000000000000000 wei into WETH")
        assert.include(swapped.stderr, "→ approving 10000000000000000 WETH to the router")
        const s1 = JSON.parse(swapped.stdout)
        assert.strictEqual(s1.amountIn, amount, "spent exactly the exactIn amount")
        assert.isTrue(BigInt(s1.amountOut) >= BigInt(s1.quoted.minimumAmountOut), "at least the quote's minimum")
        assert.strictEqual(
          (yield* balance(token)).toString(),
          s1.amountOut,
          "the key's account holds what the swap printed"
        )
        const receipt = yield* Effect.promise(() => anvil.publicClient.getTransactionReceipt({ hash: s1.txHash }))
        assert.strictEqual(receipt.status, "success")
        assert.strictEqual(receipt.from.toLowerCase(), account.address.toLowerCase())
        assert.strictEqual(receipt.to?.toLowerCase(), c.swapRouter02.toLowerCase())
        assert.strictEqual(String(receipt.blockNumber), s1.blockNumber)

        // UniversalRouter: the input is pulled through Permit2 (ERC-20 approve to Permit2, then a Permit2 allowance).
        const viaUniversal = yield* run(
          [
            "swap",
            "--key",
            key,
            "--token-in",
            "weth",
            "--token-out",
            token,
            "--amount",
            amount,
            "--router",
            "universal"
          ],
          env
        )
        assert.strictEqual(viaUniversal.code, 0, viaUniversal.stderr)
        assert.include(viaUniversal.stderr, "to Permit2")
        assert.include(viaUniversal.stderr, "→ Permit2: allowing the router")
        const s2 = JSON.parse(viaUniversal.stdout)
        assert.strictEqual(s2.amountIn, amount)
        assert.strictEqual((yield* balance(token)).toString(), (BigInt(s1.amountOut) + BigInt(s2.amountOut)).toString())
        const r2 = yield* Effect.promise(() => anvil.publicClient.getTransactionReceipt({ hash: s2.txHash }))
        assert.strictEqual(r2.to?.toLowerCase(), c.universalRouter.toLowerCase())

        const usage = yield* run(["swap", "--key", key, "--token-in", "weth"], env)
        assert.strictEqual(usage.code, 2)
        assert.include(usage.stderr, "quote and swap take --token-in, --token-out and --amount")
        const badAmount = yield* run(
          ["quote", "--token-in", "weth", "--token-out", token, "--amount", "0.5", "--key", key],
          env
        )
        assert.strictEqual(badAmount.code, 1)
        assert.include(badAmount.stderr, "--amount takes base units")
        NodeFs.rmSync(home, { recursive: true, force: true })
      }),
    CLI_TEST_TIMEOUT
  )
})
