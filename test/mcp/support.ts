import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import sharp from "sharp"
import type { LocalAccount } from "viem/accounts"
import type { ServiceName } from "../../src/platform/AppConfig.ts"
import { baseUrl, TestServices } from "../support/TestServer.ts"
import { siweMessage, TEST_JWT_SECRET } from "../sessions/support.ts"

/** The client, exchange and search services (real Postgres, real anvil), as an agent finds them. */
class TempDataDir extends Context.Service<TempDataDir, string>()("test/mcp/TempDataDir") {}
export const AgentServers = (
  env: Record<string, string> = {},
  services: ReadonlyArray<ServiceName> = ["client", "exchange", "search"]
) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const dataDir = yield* TempDataDir
      return TestServices(services, { dataDir }).pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ JWT_SECRET: TEST_JWT_SECRET, ...env })))
      )
    })
  ).pipe(
    Layer.provide(
      Layer.effect(
        TempDataDir,
        Effect.acquireRelease(
          Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-mcp-"))),
          (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
        )
      )
    )
  )

/** An official MCP SDK client on `<service>/mcp` over streamable HTTP, closed with the test's scope. */
export const connectMcp = (service: "client" | "exchange", headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const base = yield* baseUrl(service)
    return yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const client = new Client({ name: "fire-api-test-agent", version: "1" })
        await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers } }))
        return client
      }),
      (client) => Effect.promise(() => client.close())
    )
  })

export interface ToolCall {
  readonly isError: boolean
  readonly structured: any
  readonly error: { code: string; message: string; status: number } | undefined
  readonly raw: any
}

export const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(async (): Promise<ToolCall> => {
    const raw: any = await client.callTool({ name, arguments: args })
    const text = raw.content?.find((c: any) => c.type === "text")?.text
    const isError = raw.isError === true
    return { isError, structured: raw.structuredContent, error: isError ? JSON.parse(text) : undefined, raw }
  })

/** SIWE through the tools only: nonce tool, the EIP-4361 message signed by the wallet, verify tool. */
export const signInWithTools = (client: Client, account: LocalAccount) =>
  Effect.gen(function* () {
    const nonce = yield* callTool(client, "app_session_wallet_nonce", { address: account.address })
    if (nonce.isError) throw new Error(`nonce: ${JSON.stringify(nonce.error)}`)
    const message = siweMessage(account.address, nonce.structured.nonce)
    const signature = yield* Effect.promise(() => account.signMessage({ message }))
    const verified = yield* callTool(client, "app_session_wallet_verify", { message, signature })
    if (verified.isError) throw new Error(`verify: ${JSON.stringify(verified.error)}`)
    return verified.structured as { token: string; expiresAt: string; user: { id: string; walletAddress: string } }
  })

export const tinyPng = () =>
  Effect.promise(() =>
    sharp(Buffer.alloc(8 * 8 * 3, 200), { raw: { width: 8, height: 8, channels: 3 } })
      .png()
      .toBuffer()
  )

/** A PNG of random pixels (incompressible): about `side² × 3` bytes. */
export const noisePng = (side: number) =>
  Effect.promise(() =>
    sharp(Buffer.from(Array.from({ length: side * side * 3 }, () => Math.floor(Math.random() * 256))), {
      raw: { width: side, height: side, channels: 3 }
    })
      .png({ compressionLevel: 0 })
      .toBuffer()
  )
