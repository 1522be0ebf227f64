#!/usr/bin/env node
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { parseArgs } from "node:util"
import { login, missingRoutes, pendingCommands, status, type Targets } from "./cli/Commands.ts"
import { comment } from "./cli/CommentCommand.ts"
import { claim, launch } from "./cli/LaunchCommands.ts"
import { readSession } from "./cli/SessionFile.ts"

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
${Object.entries(pendingCommands).map(([name, c]) => `       fire-api ${name.padEnd(35)} ${c.what}`).join("\n")}
environment: FIRE_CLIENT_URL, FIRE_EXCHANGE_URL, FIRE_SEARCH_URL (defaults http://localhost:3000/3001/3002),
             FIRE_CHAIN_ID (31337), FIRE_API_TOKEN (session JWT for mcp), FIRE_API_KEY (partner key), FIRE_API_HOME,
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

/** Route errors print as `CODE: message`; anything else as its message. */
const report = (error: unknown) => {
  const e = error as { code?: string; message?: string; _tag?: string }
  return e?.code !== undefined ? `${e.code}: ${e.message}` : (e?.message ?? String(error))
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
  await import("./main.ts")
} else if (command === "mcp") {
  const values = parse(rest)
  const services = values.services
  if (services !== "client" && services !== "exchange") fail(`mcp takes --services client or --services exchange\n${usage}`)
  const targets = targetsOf(values)
  const { McpStdioLive } = await import("./mcp/McpStdio.ts")
  Layer.launch(McpStdioLive({
    services: services as "client" | "exchange",
    urls: { client: targets.clientUrl, exchange: targets.exchangeUrl, search: targets.searchUrl },
    token: process.env["FIRE_API_TOKEN"] ?? readSession()?.token,
    apiKey: process.env["FIRE_API_KEY"]
  })).pipe(NodeRuntime.runMain)
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
  runCli(launch(targetsOf(values), {
    key: values.key ?? process.env["FIRE_PRIVATE_KEY"],
    rpcUrl: values["rpc-url"] ?? process.env["FIRE_RPC_URL"] ?? "http://127.0.0.1:8545",
    deployments: values.deployments ?? process.env["FIRE_DEPLOYMENTS"] ?? "data/devnet/deployments.json",
    name: values.name!,
    symbol: values.symbol!,
    category: values.category ?? "other",
    description: values.description,
    image: values.image!
  }))
} else if (command === "claim") {
  const values = parse(rest)
  if (values.token === undefined) fail(`claim takes --token 0x<token address>\n${usage}`)
  runCli(claim(targetsOf(values), { key: values.key ?? process.env["FIRE_PRIVATE_KEY"], token: values.token!, image: values.image }))
} else if (command === "comment") {
  const values = parse(rest)
  if (values.token === undefined || values.text === undefined) fail(`comment takes --token 0x<token address> and --text\n${usage}`)
  runCli(comment({ token: values.token!, text: values.text!, replyTo: values["reply-to"] }))
} else if (command in pendingCommands) {
  const missing = missingRoutes(command)
  fail(
    missing.length > 0
      ? `fire-api ${command} is not available in this build: the API has no ${missing.join(", ")} yet`
      : `fire-api ${command} is not implemented in this build yet (its routes exist: use the MCP tools meanwhile)`
  )
} else {
  fail(`unknown command ${command}\n${usage}`)
}
