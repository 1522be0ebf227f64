import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type Address, type Hex, parseEther, parseEventLogs } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import { FireGraduatorAbi, FireLaunchAbi, FuelVaultAbi } from "../contracts/generated/index.ts"
import { erc20Abi, swapRouter02Abi, weth9Abi } from "./devnet/abis.ts"
import { describeRevert, makeSender } from "./devnet/tx.ts"

/**
 * The agent flow of the spec, done the way an agent does it: a private key, the official MCP SDK client on both
 * `/mcp` endpoints, and the wallet for on-chain transactions. Each step asserts the chain and the API. A step whose
 * tools the build does not have yet is reported as `missing` with the tools it needs (never faked).
 *
 *   node scripts/agent-flow.ts --client http://localhost:3000 --exchange http://localhost:3001 --rpc http://127.0.0.1:8545 \
 *     --key 0x… --deployments data/devnet/deployments.json
 */

export interface FlowOptions {
  readonly clientUrl: string
  readonly exchangeUrl: string
  readonly rpcUrl: string
  readonly chainId: number
  /** The agent's only credential. */
  readonly privateKey: Hex
  readonly contracts: { readonly fireLaunch: Address; readonly fuelVault: Address; readonly fireGraduator: Address; readonly weth9: Address; readonly swapRouter02: Address }
  /** The launch image (PNG bytes). */
  readonly image: Buffer
  /** A launch of another creator, to tip. */
  readonly otherToken: Address
  /** Tips the agent's token from someone else, so there are fees to sweep (a devnet faucet account). */
  readonly tipAgentToken: (token: Address) => Promise<void>
  /** Waits until the chain events before now are final and notified (mines blocks on a devnet). */
  readonly settle: () => Promise<void>
  readonly log?: (line: string) => void
}

export interface StepResult {
  readonly step: string
  readonly status: "passed" | "missing"
  readonly detail: string
}

const check = (condition: boolean, message: string) => {
  if (!condition) throw new Error(`agent flow: ${message}`)
}

const connect = async (url: string) => {
  const client = new Client({ name: "fire-api-agent-flow", version: "1" })
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", url)))
  return client
}

export const runAgentFlow = async (options: FlowOptions): Promise<ReadonlyArray<StepResult>> => {
  const log = options.log ?? ((line: string) => console.log(line))
  const results: Array<StepResult> = []
  const record = (step: string, status: StepResult["status"], detail: string) => {
    results.push({ step, status, detail })
    log(`${status === "passed" ? "✓" : "…"} ${step}: ${detail}`)
  }
  const account = privateKeyToAccount(options.privateKey)
  const sender = makeSender(options.chainId, options.rpcUrl)
  const chain = sender.publicClient
  const app = await connect(options.clientUrl)
  const dex = await connect(options.exchangeUrl)
  const available = new Set([
    ...(await app.listTools()).tools.map((t) => t.name),
    ...(await dex.listTools()).tools.map((t) => t.name)
  ])
  const missing = (...tools: Array<string>) => tools.filter((t) => !available.has(t))
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
    const result: any = await client.callTool({ name, arguments: args })
    if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`)
    return result.structuredContent
  }

  try {
    // 1. Sign in with SIWE through the tools only.
    const { nonce } = await call(app, "app_session_wallet_nonce", { address: account.address })
    const url = new URL(options.clientUrl)
    const message = createSiweMessage({
      domain: url.host, address: account.address, statement: "Sign in to Fire", uri: url.origin, version: "1",
      chainId: options.chainId, nonce, issuedAt: new Date()
    })
    const session = await call(app, "app_session_wallet_verify", { message, signature: await account.signMessage({ message }) })
    const me = await call(app, "app_users_me")
    check(me.walletAddress === account.address && me.id === session.user.id, "signed in as the wallet")
    record("sign in (SIWE)", "passed", `user ${me.id} for ${account.address}`)

    // 2–3. Quote WETH → token and send the calldata.
    const quoteTools = missing("dex_quote_get")
    if (quoteTools.length > 0) record("quote WETH → token and swap", "missing", `needs ${quoteTools.join(", ")}`)
    else {
      const before = await chain.readContract({ address: options.otherToken, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
      // Quotes trade ERC-20s: the wallet wraps ETH and lets SwapRouter02 (the default routerType) pull the WETH.
      await sender.write(account, options.contracts.weth9, weth9Abi, "deposit", [], parseEther("0.01"))
      await sender.write(account, options.contracts.weth9, weth9Abi, "approve", [options.contracts.swapRouter02, parseEther("0.01")])
      // The quote engine routes over indexed pools: right after a fresh start it may not have them yet (bounded wait).
      const quoteArgs = {
        chainId: String(options.chainId), tokenInAddress: options.contracts.weth9, tokenOutAddress: options.otherToken,
        amount: parseEther("0.01").toString(), recipient: account.address, slippageBps: "50"
      }
      let quote: any
      for (let attempt = 0; attempt < 60 && quote === undefined; attempt++) {
        const result: any = await dex.callTool({ name: "dex_quote_get", arguments: quoteArgs })
        if (!result.isError) quote = result.structuredContent
        else if (String(result.content?.[0]?.text).includes("NO_POOLS_AVAILABLE")) await options.settle()
        else throw new Error(`dex_quote_get: ${result.content?.[0]?.text}`)
      }
      check(quote !== undefined, "a quote once the pools are indexed")
      const method = quote.methodParameters
      check(typeof method?.calldata === "string", "the quote carries methodParameters.calldata")
      await sender.send(account, { to: method.to, data: method.calldata, value: BigInt(method.value ?? 0) })
      const after = await chain.readContract({ address: options.otherToken, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
      check(after > before, "the swap delivered tokens")
      record("quote WETH → token and swap", "passed", `received ${after - before} base units`)
    }

    // 4. Launch: draft and image first (when the launch tools exist), ignite from the wallet, then submit.
    const launchTools = missing("app_launch_create", "app_launch_image", "app_launch_submit")
    const symbol = `AG${Date.now().toString(36).slice(-4).toUpperCase()}`
    const name = `Agent ${symbol}`
    let draftId: string | undefined
    if (launchTools.length === 0) {
      const draft = await call(app, "app_launch_create", { name, symbol, description: "Launched by an agent", category: "ai", chainId: options.chainId })
      check(draft.status === "DRAFT", `a new launch is a DRAFT (got ${draft.status})`)
      const withImage = await call(app, "app_launch_image", { id: draft.id, file: { base64: options.image.toString("base64"), contentType: "image/png" } })
      check(withImage.status === "IMAGE_UPLOADED", `the image moves it to IMAGE_UPLOADED (got ${withImage.status})`)
      draftId = draft.id
    }
    const ignited = await sender.write(account, options.contracts.fireLaunch, FireLaunchAbi, "ignite", [name, symbol])
    const [event] = parseEventLogs({ abi: FireLaunchAbi, logs: ignited.logs, eventName: "Ignited" })
    const token = event!.args.token as Address
    const creator = await chain.readContract({ address: options.contracts.fireLaunch, abi: FireLaunchAbi, functionName: "creatorOf", args: [token] })
    check(creator === account.address, "the agent is the on-chain creator")
    record("launch on-chain (FireLaunch.ignite)", "passed", `token ${token}`)
    if (launchTools.length > 0) record("launch metadata (draft, image, submit)", "missing", `needs ${launchTools.join(", ")}`)
    else {
      const submitted = await call(app, "app_launch_submit", { id: draftId, tokenAddress: token })
      check(submitted.status === "COMPLETED", `submit completes the launch (got ${submitted.status})`)
      const pending = await call(app, "app_launch_pending")
      check(!(pending.items ?? pending.launches ?? []).some((l: any) => l.id === draftId), "a completed launch is no longer pending")
      if (available.has("app_tokens")) {
        // The token page reads the index: wait (bounded) until the indexer has the launch.
        let listing: any
        for (let attempt = 0; attempt < 60 && listing === undefined; attempt++) {
          const result: any = await app.callTool({ name: "app_tokens", arguments: { mintAddress: token } })
          if (!result.isError) listing = result.structuredContent
          else await options.settle()
        }
        check(listing !== undefined && JSON.stringify(listing).includes(symbol), "the token page shows the submitted metadata")
      }
      record("launch metadata (draft, image, submit)", "passed", `launch ${draftId} COMPLETED for ${token}`)
    }

    // 5. Buy it in a second transaction: through a quote when the quote tools exist, else the router directly.
    const launch = await chain.readContract({ address: options.contracts.fireLaunch, abi: FireLaunchAbi, functionName: "launchOf", args: [token] }) as { fee: number }
    await sender.write(account, options.contracts.swapRouter02, swapRouter02Abi, "exactInputSingle", [{
      tokenIn: options.contracts.weth9, tokenOut: token, fee: Number(launch.fee), recipient: account.address,
      amountIn: parseEther("0.05"), amountOutMinimum: 1n, sqrtPriceLimitX96: 0n
    }], parseEther("0.05"))
    const bought = await chain.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
    check(bought > 0n, "the buy delivered tokens")
    record("buy the new token (second transaction)", "passed", `${bought} base units via SwapRouter02`)

    // 6. Comment on it.
    const commentTools = missing("app_comments_create")
    if (commentTools.length > 0) record("comment", "missing", `needs ${commentTools.join(", ")}`)
    else {
      const comment = await call(app, "app_comments_create", { token, text: "gm from an agent" })
      record("comment", "passed", `comment ${comment.id}`)
    }

    // 7. Tip fuel to another creator; tipping itself reverts SelfGiftNotAllowed.
    await sender.write(account, options.contracts.fuelVault, FuelVaultAbi, "give", [options.otherToken], parseEther("0.01"))
    const selfTip = await sender.write(account, options.contracts.fuelVault, FuelVaultAbi, "give", [token], parseEther("0.01"))
      .then(() => "accepted", (error: unknown) => describeRevert(error, FuelVaultAbi) + String((error as Error).message))
    check(selfTip.includes("SelfGiftNotAllowed"), `a self-tip reverts SelfGiftNotAllowed (got ${selfTip.slice(0, 200)})`)
    record("tip fuel (and SelfGiftNotAllowed on itself)", "passed", `0.01 ETH to ${options.otherToken}`)
    const fuelTools = missing("app_fuel_given")
    if (fuelTools.length > 0) record("fuel in the API", "missing", `needs ${fuelTools.join(", ")}`)

    // 8. Sweep fees (fuel received by the agent's token) with FuelVault.withdraw.
    await options.tipAgentToken(token)
    const balanceBefore = await chain.getBalance({ address: account.address })
    const withdrawn = await sender.write(account, options.contracts.fuelVault, FuelVaultAbi, "withdraw", [token])
    const gas = withdrawn.gasUsed * withdrawn.effectiveGasPrice
    const gained = (await chain.getBalance({ address: account.address })) - balanceBefore + gas
    check(gained > 0n, "withdraw paid the creator")
    record("sweep fees (FuelVault.withdraw)", "passed", `${gained} wei`)

    // 9. Graduation progress: on chain always; through the API when its tools exist.
    const [conditionMet, conditionAt] = await chain.readContract({
      address: options.contracts.fireGraduator, abi: FireGraduatorAbi, functionName: "graduationStatus", args: [token]
    }) as readonly [boolean, bigint, bigint, bigint, bigint]
    record("graduation status on chain", "passed", `condition met ${conditionMet}, recorded at ${conditionAt}`)
    const graduationTools = missing("dex_tokens_fire_meta")
    if (graduationTools.length > 0) record("graduation progress in the API", "missing", `needs ${graduationTools.join(", ")}`)

    // 10. Notifications: the tip to the agent's token is a FUEL_RECEIVED once final.
    const notificationTools = missing("app_notifications")
    if (notificationTools.length > 0) record("notifications", "missing", `needs ${notificationTools.join(", ")}`)
    else {
      let kinds: Array<string> = []
      for (let attempt = 0; attempt < 60 && !kinds.includes("FUEL_RECEIVED"); attempt++) {
        await options.settle()
        const page = await call(app, "app_notifications")
        kinds = (page.items ?? []).map((n: any) => n.kind ?? n.type)
      }
      check(kinds.includes("FUEL_RECEIVED"), `a FUEL_RECEIVED notification arrives (got ${kinds.join(", ") || "none"})`)
      record("notifications", "passed", `kinds: ${kinds.join(", ")}`)
    }
    return results
  } finally {
    await Promise.allSettled([app.close(), dex.close()])
  }
}

/** Against running services on a devnet: the devnet's 5th test account plays the other creator's fan who tips. */
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
  const results = await runAgentFlow({
    clientUrl: values.client,
    exchangeUrl: values.exchange,
    rpcUrl: values.rpc,
    chainId: deployments.chainId,
    privateKey: values.key as Hex,
    contracts: deployments.contracts,
    otherToken: other.token,
    image: await (await import("sharp")).default(Buffer.alloc(64 * 64 * 3, 180), { raw: { width: 64, height: 64, channels: 3 } }).png().toBuffer(),
    tipAgentToken: async (token) => void (await sender.write(tipper, deployments.contracts.fuelVault, FuelVaultAbi, "give", [token], parseEther("0.02"))),
    settle: () => rpcRequest(values.rpc, "anvil_mine", ["0x2"]).then(() => undefined)
  })
  const missing = results.filter((r) => r.status === "missing")
  console.log(`${results.length - missing.length} steps passed, ${missing.length} waiting for routes`)
}
