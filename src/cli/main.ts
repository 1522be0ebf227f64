#!/usr/bin/env node
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { parseArgs } from "node:util"
import { login, status, type Targets } from "./Commands.ts"
import { comment } from "./CommentCommand.ts"
import { claim, launch } from "./LaunchCommands.ts"
import { readSession } from "./SessionFile.ts"
import { quote, type QuoteArgs, swap } from "./TradeCommands.ts"

/**
 * `fire-api <command>`: the servers (no command, or `serve`), the MCP stdio entry, and the agent commands.
 * The server is imported only for `serve`, so `mcp` keeps stdout clean and starts in a fraction of a second.
 */

const usage = `usage: fire-api [serve] [--services client,exchange,search,indexer]   run the services (default: all)
       fire-api mcp --services client|exchange [--client-url U] [--exchange-url U] [--search-url U]
                                                MCP server over stdio; calls the running services
       fire-api login --key 0x<private key>     sign in with Ethereum (EIP-4361); stores the session
       fire-api status                          stored session and service health
       fire-api launch --key K --name N --symbol S --image F [--category C] [--description D]
                                                draft, image, FireLaunch.ignite() from the wallet, submit
       fire-api claim --key K --token 0x… [--image F]
                                                sign the claim typed data (EIP-712) and claim the token
       fire-api comment --token 0x… --text T [--reply-to ID]
                                                post on a token's thread with the stored session
       fire-api quote --token-in weth|0x… --token-out 0x… --amount N [--type exactIn|exactOut] [--slippage-bps 50]
                      [--router swap-router-02|universal] [--recipient 0x… | --key K] [--api-key KEY]
                                                GET /api/v1/quote (dex_quote_get): route, amounts, calldata
       fire-api swap --key K --token-in weth|0x… --token-out 0x… --amount N [--type …] [--slippage-bps …] [--router …]
                                                quote, approve, send the calldata from the key's account, wait
                                                for the receipt, print the amounts moved (amounts in base units)
environment: FIRE_CLIENT_URL, FIRE_EXCHANGE_URL, FIRE_SEARCH_URL (defaults http://localhost:3000/3001/3002),
             FIRE_CHAIN_ID (31337), FIRE_API_TOKEN (session JWT for mcp), FIRE_API_KEY (partner key, --api-key),
             FIRE_PRIVATE_KEY (--key of launch, claim, quote, swap), FIRE_API_HOME,
             FIRE_RPC_URL (--rpc-url, http://127.0.0.1:8545), FIRE_DEPLOYMENTS (--deployments, data/devnet/deployments.json)`

const [command, ...rest] = process.argv.slice(2)

const fail = (message: string, code = 2): never => {
  console.error(message)
  process.exit(code)
}

const options = {
  services: { type: "string" },
  key: { type: "string" },
  "client-url": { type: "string" },
  "exchange-url": { type: "string" },
  "search-url": { type: "string" },
  "chain-id": { type: "string" },
  "rpc-url": { type: "string" },
  deployments: { type: "string" },
  name: { type: "string" },
  symbol: { type: "string" },
  category: { type: "string" },
  description: { type: "string" },
  image: { type: "string" },
  token: { type: "string" },
  text: { type: "string" },
  "reply-to": { type: "string" },
  "token-in": { type: "string" },
  "token-out": { type: "string" },
  amount: { type: "string" },
  type: { type: "string" },
  "slippage-bps": { type: "string" },
  router: { type: "string" },
  recipient: { type: "string" },
  "api-key": { type: "string" },
  help: { type: "boolean", short: "h" }
} as const

const parse = (args: ReadonlyArray<string>) => {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false }).values
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`)
  }
}

const targetsOf = (values: ReturnType<typeof parse>): Targets => ({
  clientUrl: values["client-url"] ?? process.env["FIRE_CLIENT_URL"] ?? "http://localhost:3000",
  exchangeUrl: values["exchange-url"] ?? process.env["FIRE_EXCHANGE_URL"] ?? "http://localhost:3001",
  searchUrl: values["search-url"] ?? process.env["FIRE_SEARCH_URL"] ?? "http://localhost:3002",
  chainId: Number(values["chain-id"] ?? process.env["FIRE_CHAIN_ID"] ?? 31337)
})

/** Route errors print as `CODE: message` (the exchange's bodies say `error`); anything else as its message. */
const report = (error: unknown) => {
  const e = error as { code?: string; message?: string; error?: unknown }
  if (e?.code === undefined) return e?.message ?? String(error)
  return `${e.code}: ${typeof e.error === "string" ? e.error : e.message}`
}

const tradeArgs = (values: ReturnType<typeof parse>): QuoteArgs => {
  if (values["token-in"] === undefined || values["token-out"] === undefined || values.amount === undefined) {
    fail(`quote and swap take --token-in, --token-out and --amount\n${usage}`)
  }
  const type = values.type ?? "exactIn"
  if (type !== "exactIn" && type !== "exactOut") fail("--type is exactIn or exactOut")
  const router = values.router ?? "swap-router-02"
  if (router !== "swap-router-02" && router !== "universal") fail("--router is swap-router-02 or universal")
  return {
    tokenIn: values["token-in"]!,
    tokenOut: values["token-out"]!,
    amount: values.amount!,
    type: type as QuoteArgs["type"],
    slippageBps: values["slippage-bps"],
    routerType: router as QuoteArgs["routerType"],
    apiKey: values["api-key"] ?? process.env["FIRE_API_KEY"],
    recipient: values.recipient,
    key: values.key ?? process.env["FIRE_PRIVATE_KEY"],
    deployments: values.deployments ?? process.env["FIRE_DEPLOYMENTS"] ?? "data/devnet/deployments.json"
  }
}

const runCli = (program: Effect.Effect<void, unknown, HttpClient.HttpClient>) =>
  program.pipe(
    Effect.provide(FetchHttpClient.layer),
    Effect.catch((error) => Effect.sync(() => fail(`✗ ${report(error)}`, 1))),
    NodeRuntime.runMain
  )

if (command === "--help" || command === "-h" || command === "help") {
  console.log(usage)
} else if (command === undefined || command === "serve" || command.startsWith("--services")) {
  if (command === "serve") process.argv.splice(2, 1)
  await import("../main.ts")
} else if (command === "mcp") {
  const values = parse(rest)
  const services = values.services
  if (services !== "client" && services !== "exchange")
    fail(`mcp takes --services client or --services exchange\n${usage}`)
  const targets = targetsOf(values)
  const { McpStdioLive } = await import("../mcp/McpStdio.ts")
  Layer.launch(
    McpStdioLive({
      services: services as "client" | "exchange",
      urls: { client: targets.clientUrl, exchange: targets.exchangeUrl, search: targets.searchUrl },
      token: process.env["FIRE_API_TOKEN"] ?? readSession()?.token,
      apiKey: process.env["FIRE_API_KEY"]
    })
  ).pipe(NodeRuntime.runMain)
} else if (command === "login") {
  const values = parse(rest)
  if (values.key === undefined) fail(`login takes --key 0x<private key>\n${usage}`)
  runCli(login(targetsOf(values), values.key!))
} else if (command === "status") {
  runCli(status(targetsOf(parse(rest))))
} else if (command === "launch") {
  const values = parse(rest)
  if (values.name === undefined || values.symbol === undefined || values.image === undefined) {
    fail(`launch takes --name, --symbol and --image\n${usage}`)
  }
  runCli(
    launch(targetsOf(values), {
      key: values.key ?? process.env["FIRE_PRIVATE_KEY"],
      rpcUrl: values["rpc-url"] ?? process.env["FIRE_RPC_URL"] ?? "http://127.0.0.1:8545",
      deployments: values.deployments ?? process.env["FIRE_DEPLOYMENTS"] ?? "data/devnet/deployments.json",
      name: values.name!,
      symbol: values.symbol!,
      category: values.category ?? "other",
      description: values.description,
      image: values.image!
    })
  )
} else if (command === "claim") {
  const values = parse(rest)
  if (values.token === undefined) fail(`claim takes --token 0x<token address>\n${usage}`)
  runCli(
    claim(targetsOf(values), {
      key: values.key ?? process.env["FIRE_PRIVATE_KEY"],
      token: values.token!,
      image: values.image
    })
  )
} else if (command === "comment") {
  const values = parse(rest)
  if (values.token === undefined || values.text === undefined)
    fail(`comment takes --token 0x<token address> and --text\n${usage}`)
  runCli(comment({ token: values.token!, text: values.text!, replyTo: values["reply-to"] }))
} else if (command === "quote") {
  const values = parse(rest)
  runCli(quote(targetsOf(values), tradeArgs(values)))
} else if (command === "swap") {
  const values = parse(rest)
  runCli(
    swap(targetsOf(values), {
      ...tradeArgs(values),
      rpcUrl: values["rpc-url"] ?? process.env["FIRE_RPC_URL"] ?? "http://127.0.0.1:8545"
    })
  )
} else {
  fail(`unknown command ${command}\n${usage}`)
}
