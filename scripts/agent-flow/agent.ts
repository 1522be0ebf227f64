import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

/**
 * The agent's side of MCP: the official SDK client on both `/mcp` endpoints, tool calls that either return the
 * structured result or throw the route's `{code, message}`, and a bounded wait for state that follows the chain.
 */

export interface ToolError {
  readonly status: number
  readonly code: string
  readonly message: string
}

export type Outcome = { readonly ok: true; readonly value: any } | { readonly ok: false; readonly error: ToolError }

export const check = (condition: boolean, message: string): void => {
  if (!condition) throw new Error(`agent flow: ${message}`)
}

export interface AgentConnection {
  /** The client service's `app_` tools (this MCP session signs in). */
  readonly app: Client
  /** The exchange service's `dex_` tools (the partner key travels as `x-api-key` on every request). */
  readonly dex: Client
  readonly tools: ReadonlySet<string>
  readonly close: () => Promise<void>
}

const connect = async (url: string, headers: Record<string, string>) => {
  const client = new Client({ name: "fire-api-agent-flow", version: "1" })
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", url), { requestInit: { headers } }))
  return client
}

export const connectAgent = async (
  clientUrl: string,
  exchangeUrl: string,
  apiKey: string | undefined
): Promise<AgentConnection> => {
  const app = await connect(clientUrl, {})
  const dex = await connect(exchangeUrl, apiKey !== undefined ? { "x-api-key": apiKey } : {})
  const tools = new Set([...(await app.listTools()).tools, ...(await dex.listTools()).tools].map((t) => t.name))
  return { app, dex, tools, close: async () => void (await Promise.allSettled([app.close(), dex.close()])) }
}

/** The tools the flow drives must all be there: a build without one is a failure, not a skipped step. */
export const requireTools = (connection: AgentConnection, names: ReadonlyArray<string>) => {
  const missing = names.filter((n) => !connection.tools.has(n))
  check(missing.length === 0, `the servers lack the tools ${missing.join(", ")}`)
}

export const attempt = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Outcome> => {
  const result: any = await client.callTool({ name, arguments: args })
  if (result.isError !== true) return { ok: true, value: result.structuredContent }
  const text = result.content?.find((c: any) => c.type === "text")?.text ?? "{}"
  try {
    return { ok: false, error: JSON.parse(text) as ToolError }
  } catch {
    return { ok: false, error: { status: 0, code: "UNPARSEABLE", message: text } }
  }
}

export const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> => {
  const outcome = await attempt(client, name, args)
  if (!outcome.ok) throw new Error(`agent flow: ${name} → ${outcome.error.code}: ${outcome.error.message}`)
  return outcome.value
}

/**
 * Polls `probe` until it returns a value: for API state that follows the chain through the indexer (and, for
 * notifications, past the finality depth). `settle` lets time pass on the chain between polls (a devnet mines a
 * block); polls are 50 ms apart and the wait is bounded.
 */
export const eventually = async <T>(
  what: string,
  probe: () => Promise<T | undefined>,
  settle: () => Promise<void>,
  timeoutMs = 60_000
): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`agent flow: ${what} (not seen within ${timeoutMs} ms)`)
    await settle()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
