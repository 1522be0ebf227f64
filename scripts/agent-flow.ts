import { type Address, type Hex, parseEther, parseEventLogs } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import { FireGraduatorAbi, FireLaunchAbi, FireRegistryAbi, FuelVaultAbi } from "../contracts/generated/index.ts"
import { attempt, call, check, connectAgent, eventually, requireTools } from "./agent-flow/agent.ts"
import { buyWithWeth } from "./agent-flow/trade.ts"
import { erc20Abi } from "./devnet/abis.ts"
import { describeRevert, makeSender } from "./devnet/tx.ts"

/**
 * The spec's agent flow, done the way an agent does it: a private key, the official MCP SDK client on both `/mcp`
 * endpoints (the partner key on the exchange's), and the wallet for on-chain transactions. Every step asserts the
 * chain and the API; a tool the servers lack fails the flow.
 *
 *   node scripts/agent-flow.ts --client http://localhost:3000 --exchange http://localhost:3001 --rpc http://127.0.0.1:8545 \
 *     --key 0x… [--api-key K] --deployments data/devnet/deployments.json
 */

export interface FlowOptions {
  readonly clientUrl: string
  readonly exchangeUrl: string
  readonly rpcUrl: string
  readonly chainId: number
  /** The agent's only credential (a funded account). */
  readonly privateKey: Hex
  /** Partner key of the quote tools (`x-api-key` on the exchange's /mcp); none when the server has no keys. */
  readonly apiKey?: string | undefined
  readonly contracts: {
    readonly fireLaunch: Address
    readonly fireRegistry: Address
    readonly fuelVault: Address
    readonly fireGraduator: Address
    readonly weth9: Address
  }
  /** The launch image (PNG bytes). */
  readonly image: Buffer
  /** A launch of another creator, to tip. */
  readonly otherToken: Address
  /** Someone else tips the agent's token, so there are fees to sweep (a devnet faucet account). */
  readonly tipAgentToken: (token: Address) => Promise<void>
  /** Lets the chain move on between polls (a devnet mines a block; a live chain needs nothing). */
  readonly settle: () => Promise<void>
  /** Moves the chain's clock past the grace period (devnet: evm_increaseTime; a live chain: wait). */
  readonly advanceTime: (seconds: number) => Promise<void>
  readonly log?: (line: string) => void
}

export const FLOW_STEPS = [
  "sign in (SIWE)",
  "quote WETH → token and swap",
  "launch (draft, image, FireLaunch.ignite, submit)",
  "buy the new token (second transaction)",
  "comment",
  "tip fuel (and SelfGiftNotAllowed on itself)",
  "sweep fees (FuelVault.withdraw)",
  "graduation progress (after the grace period)",
  "notifications"
] as const

const TOOLS = [
  "app_session_wallet_nonce",
  "app_session_wallet_verify",
  "app_users_me",
  "dex_quote_get",
  "dex_status",
  "app_launch_create",
  "app_launch_image",
  "app_launch_submit",
  "app_launch_pending",
  "app_tokens",
  "app_comments_create",
  "app_comments_tokens",
  "app_fuel_given",
  "app_fuel_received",
  "app_fuel_credits",
  "dex_tokens_fire_meta",
  "app_notifications",
  "app_notifications_unread_count",
  "app_notifications_read_all"
]

export const runAgentFlow = async (options: FlowOptions): Promise<ReadonlyArray<string>> => {
  const log = options.log ?? ((line: string) => console.log(line))
  const passed: Array<string> = []
  const done = (step: (typeof FLOW_STEPS)[number], detail: string) => {
    passed.push(step)
    log(`✓ ${step}: ${detail}`)
  }
  const c = options.contracts
  const account = privateKeyToAccount(options.privateKey)
  const sender = makeSender(options.chainId, options.rpcUrl)
  const chain = sender.publicClient
  const agent = await connectAgent(options.clientUrl, options.exchangeUrl, options.apiKey)
  const { app, dex } = agent
  const settle = options.settle
  const trade = { dex, account, sender, chainId: options.chainId, weth9: c.weth9, settle }
  try {
    requireTools(agent, TOOLS)

    // 1. Sign in with SIWE through the tools only: this MCP session then carries the JWT.
    const { nonce } = await call(app, "app_session_wallet_nonce", { address: account.address })
    const url = new URL(options.clientUrl)
    const message = createSiweMessage({
      domain: url.host,
      address: account.address,
      statement: "Sign in to Fire",
      uri: url.origin,
      version: "1",
      chainId: options.chainId,
      nonce,
      issuedAt: new Date()
    })
    const session = await call(app, "app_session_wallet_verify", {
      message,
      signature: await account.signMessage({ message })
    })
    const me = await call(app, "app_users_me")
    check(me.walletAddress === account.address && me.id === session.user.id, "app_users_me is the signed-in wallet")
    done("sign in (SIWE)", `user ${me.id} for ${account.address}`)

    // 2–3. Quote WETH → another creator's token (partner key) and send the calldata from the wallet.
    const swap = await buyWithWeth(trade, options.otherToken, parseEther("0.01"))
    done("quote WETH → token and swap", `${swap.received} base units via ${swap.quote.routeString}, dex_status success`)

    // 4. Launch: draft and image through the tools, FireLaunch.ignite() from the wallet, then submit.
    const symbol = `AG${Date.now().toString(36).slice(-4).toUpperCase()}`
    const name = `Agent ${symbol}`
    const description = "Launched by an agent"
    const draft = await call(app, "app_launch_create", {
      name,
      symbol,
      description,
      category: "ai",
      chainId: options.chainId
    })
    check(draft.status === "DRAFT", `a new launch is a DRAFT (got ${draft.status})`)
    const withImage = await call(app, "app_launch_image", {
      id: draft.id,
      file: { base64: options.image.toString("base64"), contentType: "image/png" }
    })
    check(withImage.status === "IMAGE_UPLOADED", `the image moves it to IMAGE_UPLOADED (got ${withImage.status})`)
    const ignited = await sender.write(account, c.fireLaunch, FireLaunchAbi, "ignite", [name, symbol])
    const token = parseEventLogs({ abi: FireLaunchAbi, logs: ignited.logs, eventName: "Ignited" })[0]!.args
      .token as Address
    const creator = await chain.readContract({
      address: c.fireLaunch,
      abi: FireLaunchAbi,
      functionName: "creatorOf",
      args: [token]
    })
    check(creator === account.address, "the agent is the on-chain creator")
    const submitted = await call(app, "app_launch_submit", { id: draft.id, tokenAddress: token })
    check(submitted.status === "COMPLETED", `submit completes the launch (got ${submitted.status})`)
    const pending = await call(app, "app_launch_pending")
    check(!JSON.stringify(pending).includes(draft.id), "a completed launch is no longer pending")
    const listing = await eventually(
      `app_tokens lists ${token}`,
      async () => {
        const outcome = await attempt(app, "app_tokens", { mintAddress: token })
        return outcome.ok ? outcome.value : undefined
      },
      settle
    )
    check(
      listing.creatorAddress === account.address && listing.symbol === symbol,
      "the token page names the agent and the symbol"
    )
    check(
      listing.metadata?.description === description && listing.metadata?.source === "launch",
      "the token page carries the submitted metadata"
    )
    done("launch (draft, image, FireLaunch.ignite, submit)", `launch ${draft.id} COMPLETED for ${token}`)

    // 5. Buy it in a second transaction (not atomic with the launch): a quote for the new pool, then the calldata.
    const buy = await buyWithWeth(trade, token, parseEther("0.05"))
    check(buy.receipt.blockNumber > ignited.blockNumber, "the buy is a later transaction than the launch")
    done("buy the new token (second transaction)", `${buy.received} ${symbol} for 0.05 WETH`)

    // 6. Comment on it.
    const comment = await call(app, "app_comments_create", { token, text: "gm from an agent" })
    check(
      comment.postNumber === 1 && comment.author?.walletAddress === account.address,
      "the first post of the thread, by the agent"
    )
    const thread = await call(app, "app_comments_tokens", { mintAddress: token })
    check(
      thread.items.some((item: any) => item.id === comment.id),
      "the thread lists the comment"
    )
    done("comment", `comment ${comment.id} is post #1 on ${symbol}`)

    // 7. Tip fuel to another creator; tipping itself reverts SelfGiftNotAllowed.
    const tip = parseEther("0.01")
    const given = await sender.write(account, c.fuelVault, FuelVaultAbi, "give", [options.otherToken], tip)
    const selfTip = await sender.write(account, c.fuelVault, FuelVaultAbi, "give", [token], tip).then(
      () => "accepted",
      (error: unknown) => `${describeRevert(error, FuelVaultAbi)} ${(error as Error).message}`
    )
    check(
      selfTip.includes("SelfGiftNotAllowed"),
      `a self-tip reverts SelfGiftNotAllowed (got ${selfTip.slice(0, 200)})`
    )
    await eventually(
      "app_fuel_given lists the tip",
      async () => {
        const page = await call(app, "app_fuel_given")
        return (
          page.items.find(
            (t: any) => String(t.txHash).toLowerCase() === given.transactionHash && t.amount === tip.toString()
          ) ?? undefined
        )
      },
      settle
    )
    done("tip fuel (and SelfGiftNotAllowed on itself)", `0.01 ETH to ${options.otherToken}; app_fuel_given lists it`)

    // 8. Sweep fees: someone tips the agent's token, the agent withdraws it from FuelVault.
    await options.tipAgentToken(token)
    const pendingFuel = await chain.readContract({
      address: c.fuelVault,
      abi: FuelVaultAbi,
      functionName: "fuelOf",
      args: [token]
    })
    check(pendingFuel > 0n, "the agent's token has fuel to sweep")
    const credits = await eventually(
      "app_fuel_credits shows the fuel to withdraw",
      async () => {
        const page = await call(app, "app_fuel_credits")
        const row = page.tokens.find((t: any) => String(t.token).toLowerCase() === token.toLowerCase())
        return row !== undefined && row.pending === pendingFuel.toString() ? page : undefined
      },
      settle
    )
    check(BigInt(credits.withdrawable) >= pendingFuel, "withdrawable covers the token's pending fuel")
    const received = await call(app, "app_fuel_received")
    check(
      received.items.some((t: any) => String(t.token).toLowerCase() === token.toLowerCase()),
      "app_fuel_received lists the tip"
    )
    const balanceBefore = await chain.getBalance({ address: account.address })
    const withdrawn = await sender.write(account, c.fuelVault, FuelVaultAbi, "withdraw", [token])
    const gained =
      (await chain.getBalance({ address: account.address })) -
      balanceBefore +
      withdrawn.gasUsed * withdrawn.effectiveGasPrice
    check(gained === pendingFuel, `withdraw paid the creator the pending fuel (${gained} of ${pendingFuel})`)
    await eventually(
      "app_fuel_credits shows the withdrawal",
      async () => {
        const page = await call(app, "app_fuel_credits")
        const row = page.tokens.find((t: any) => String(t.token).toLowerCase() === token.toLowerCase())
        return row !== undefined && row.withdrawn === pendingFuel.toString() && row.pending === "0" ? row : undefined
      },
      settle
    )
    done("sweep fees (FuelVault.withdraw)", `${gained} wei; app_fuel_credits shows it withdrawn`)

    // 9. Graduation: fill the pool to the threshold, record the condition, wait out the grace period, graduate.
    const graduationState = async () => {
      const page = await call(app, "app_tokens", { mintAddress: token })
      const meta = await call(dex, "dex_tokens_fire_meta", { addresses: token })
      return { app: page.graduation.state as string, dex: meta.items[0]?.graduation?.state as string }
    }
    const threshold = await chain.readContract({
      address: c.fireRegistry,
      abi: FireRegistryAbi,
      functionName: "graduationThreshold"
    })
    const pool = await chain.readContract({
      address: c.fireLaunch,
      abi: FireLaunchAbi,
      functionName: "poolOf",
      args: [token]
    })
    const inPool = await chain.readContract({
      address: c.weth9,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [pool]
    })
    const fill = inPool < threshold ? threshold - inPool : 0n
    if (fill > 0n) await buyWithWeth(trade, token, fill)
    check(
      await chain.readContract({
        address: c.fireGraduator,
        abi: FireGraduatorAbi,
        functionName: "canGraduate",
        args: [token]
      }),
      "canGraduate"
    )
    await sender.write(account, c.fireLaunch, FireLaunchAbi, "recordGraduationCondition", [token])
    await eventually(
      "the API shows condition_recorded",
      async () => {
        const state = await graduationState()
        return state.app === "condition_recorded" && state.dex === "condition_recorded" ? state : undefined
      },
      settle
    )
    const early = await sender.write(account, c.fireGraduator, FireGraduatorAbi, "graduate", [token]).then(
      () => "accepted",
      (error: unknown) => (error as Error).message
    )
    check(
      early.includes("GracePeriodNotOver"),
      `graduate() within the grace period reverts GracePeriodNotOver (got ${early.slice(0, 200)})`
    )
    const grace = await chain.readContract({
      address: c.fireRegistry,
      abi: FireRegistryAbi,
      functionName: "gracePeriodDuration"
    })
    await options.advanceTime(Number(grace) + 1)
    await sender.write(account, c.fireGraduator, FireGraduatorAbi, "graduate", [token])
    const [, , , , graduatedAt] = await chain.readContract({
      address: c.fireGraduator,
      abi: FireGraduatorAbi,
      functionName: "graduationStatus",
      args: [token]
    })
    check(graduatedAt > 0n, "graduated on chain")
    await eventually(
      "the API shows graduated",
      async () => {
        const state = await graduationState()
        return state.app === "graduated" && state.dex === "graduated" ? state : undefined
      },
      settle
    )
    done(
      "graduation progress (after the grace period)",
      `a ${fill} wei buy filled the pool to the ${threshold} wei threshold; condition_recorded, GracePeriodNotOver, ${grace} s later graduated`
    )

    // 10. Notifications: the tip to the agent's token and the graduation, once final; then mark them read.
    const kinds = await eventually(
      "FUEL_RECEIVED and TOKEN_GRADUATED notifications",
      async () => {
        const page = await call(app, "app_notifications")
        const seen: Array<string> = page.items.map((n: any) => n.kind)
        return seen.includes("FUEL_RECEIVED") && seen.includes("TOKEN_GRADUATED") ? seen : undefined
      },
      settle
    )
    const unread = await call(app, "app_notifications_unread_count")
    check(unread.unread >= 2, `at least the two notifications are unread (got ${unread.unread})`)
    await call(app, "app_notifications_read_all")
    check((await call(app, "app_notifications_unread_count")).unread === 0, "read-all leaves nothing unread")
    done("notifications", `kinds: ${kinds.join(", ")}; all marked read`)
    return passed
  } finally {
    await agent.close()
  }
}

/** Against running services on a devnet: the devnet's 5th test account plays the fan who tips the agent's token. */
if (import.meta.main) {
  const { parseArgs } = await import("node:util")
  const { readDeploymentsSync } = await import("../layers/Deployments.ts")
  const { rpcRequest } = await import("../layers/Anvil.ts")
  const { devnetAccounts } = await import("./devnet/tx.ts")
  const { values } = parseArgs({
    options: {
      client: { type: "string", default: "http://localhost:3000" },
      exchange: { type: "string", default: "http://localhost:3001" },
      rpc: { type: "string", default: "http://127.0.0.1:8545" },
      key: { type: "string" },
      "api-key": { type: "string" },
      deployments: { type: "string", default: "data/devnet/deployments.json" }
    }
  })
  if (values.key === undefined) throw new Error("--key 0x<private key of a funded account> is required")
  const deployments = readDeploymentsSync(values.deployments)
  const agent = privateKeyToAccount(values.key as Hex)
  const other = deployments.launches.find((l) => l.canonical && !l.graduated && l.creator !== agent.address)
  if (other === undefined) throw new Error("the devnet has no canonical launch of another creator to tip")
  const tipper = devnetAccounts()[4]!
  const sender = makeSender(deployments.chainId, values.rpc)
  const passed = await runAgentFlow({
    clientUrl: values.client,
    exchangeUrl: values.exchange,
    rpcUrl: values.rpc,
    chainId: deployments.chainId,
    privateKey: values.key as Hex,
    apiKey: values["api-key"] ?? process.env["FIRE_API_KEY"],
    contracts: { ...deployments.contracts, ...deployments.launchpad! },
    otherToken: other.token,
    image: await (await import("sharp"))
      .default(Buffer.alloc(64 * 64 * 3, 180), { raw: { width: 64, height: 64, channels: 3 } })
      .png()
      .toBuffer(),
    tipAgentToken: async (token) =>
      void (await sender.write(
        tipper,
        deployments.launchpad!.fuelVault,
        FuelVaultAbi,
        "give",
        [token],
        parseEther("0.02")
      )),
    settle: () => rpcRequest(values.rpc, "anvil_mine", ["0x1"]).then(() => undefined),
    advanceTime: async (seconds) => {
      await rpcRequest(values.rpc, "evm_increaseTime", [seconds])
      await rpcRequest(values.rpc, "evm_mine", [])
    }
  })
  console.log(`${passed.length} of ${FLOW_STEPS.length} steps passed`)
}
