import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { freePort } from "./spawn.ts"

/** The services bench:abuse and bench:mcp-heap run, in one process. */
export const PRODUCTION_STACK_ARGS: ReadonlyArray<string> = ["--services", "client,exchange,indexer"]

/**
 * The app env of bench:abuse and bench:mcp-heap: the stack as `npm start` starts it (embedded PostgreSQL and devnet
 * in a fresh DATA_DIR) in production mode with the settings it demands, partner keys closed (`QUOTE_OPEN=false`),
 * behind one trusted proxy (`TRUST_PROXY=true`), which the bench plays: each caller has its own address in
 * `X-Forwarded-For`. The app's inspector listens on `inspectPort`: the benches read its heap through it
 * (scripts/abuse/AppHeap.ts, bench:mcp-heap). `remove` deletes the DATA_DIR once the app has stopped.
 */
export const productionStack = async (name: string) => {
  const dataDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), `fire-bench-${name}-`))
  NodeFs.chmodSync(dataDir, 0o755) // the embedded PostgreSQL's user must reach it
  const devnetPort = await freePort()
  const inspectPort = await freePort()
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    RPC_URL: undefined,
    EMBEDDED_PG_PORT: "0",
    DEVNET_PORT: String(devnetPort),
    CLIENT_PORT: "0",
    EXCHANGE_PORT: "0",
    INDEXER_PORT: "0",
    HOST: "127.0.0.1",
    FIRE_ENV: "production",
    SIWE_DOMAINS: "localhost",
    JWT_SECRET: `${name}-${crypto.randomUUID()}-${crypto.randomUUID()}`,
    QUOTE_OPEN: "false",
    TRUST_PROXY: "true",
    TRUSTED_PROXY_HOPS: "1",
    NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`
  }
  return {
    dataDir,
    devnetPort,
    inspectPort,
    env,
    remove: () => NodeFs.rmSync(dataDir, { recursive: true, force: true })
  }
}
