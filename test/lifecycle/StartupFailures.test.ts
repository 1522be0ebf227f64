import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest"
import * as NodeFs from "node:fs"
import * as NodeNet from "node:net"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { type AnvilInstance, freePort, startAnvil } from "../../layers/Anvil.ts"
import { exitOrReady, noisyLines, spawnApp, stopLeftoverApps } from "./AppProcess.ts"

/**
 * A start that cannot succeed ends with exactly one error line that names the setting to change, no stack, and exit
 * code 1 (layers/StartupFailure.ts); the stack is there at LOG_LEVEL=Debug. The real app, one case each.
 */
const base = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-startup-failures-"))
// mkdtemp makes it 0700: as root, the embedded PostgreSQL (run as `postgres`) could not reach a DATA_DIR below it.
NodeFs.chmodSync(base, 0o755)
const dataDir = NodePath.join(base, "data")
let otherChain: AnvilInstance
let occupied: NodeNet.Server
let occupiedPort = 0

beforeAll(async () => {
  otherChain = await startAnvil({ dataDir: NodePath.join(base, "other-chain"), chainId: 1337 })
  occupied = NodeNet.createServer()
  await new Promise<void>((resolve) => occupied.listen(0, "0.0.0.0", resolve))
  occupiedPort = (occupied.address() as NodeNet.AddressInfo).port
})
afterEach(stopLeftoverApps)
afterAll(async () => {
  await otherChain?.stop()
  occupied?.close()
  NodeFs.rmSync(base, { recursive: true, force: true })
})

const errorLines = (output: string) => output.split("\n").filter((line) => /\bERROR\b/.test(line))

/** Starts the client service with `env` and returns its single error line (asserting one line, no stack, exit 1). */
const failedStart = async (env: Record<string, string>) => {
  const app = spawnApp({ DATA_DIR: dataDir, ...env }, ["--services", "client"])
  expect(await exitOrReady(app)).toBe(1)
  const output = app.output()
  expect(errorLines(output), output).toHaveLength(1)
  expect(noisyLines(output), output).toEqual(errorLines(output))
  return errorLines(output)[0]!
}

describe("start-up failures: one line naming what to change, exit 1", () => {
  it("an invalid setting", async () => {
    expect(await failedStart({ CLIENT_PORT: "abc" })).toMatch(/invalid setting CLIENT_PORT="abc": expected .*number/)
  }, 60_000)

  it("an invalid LOG_LEVEL (the logger itself cannot be built)", async () => {
    expect(await failedStart({ LOG_LEVEL: "Loud" })).toMatch(/invalid setting LOG_LEVEL="Loud": expected .*"Debug"/)
  }, 60_000)

  it("DATA_DIR that cannot be created (a file in the way)", async () => {
    const file = NodePath.join(base, "a-file")
    NodeFs.writeFileSync(file, "")
    const line = await failedStart({ DATA_DIR: NodePath.join(file, "data") })
    expect(line).toContain(`DATA_DIR ${NodePath.join(file, "data")} is not usable (ENOTDIR`)
    expect(line).toContain("set DATA_DIR to a directory this user can write")
  }, 60_000)

  it("DATA_DIR the database server cannot reach: below a 0700 directory as root, a read-only one otherwise", async () => {
    const closed = NodePath.join(base, "closed")
    NodeFs.mkdirSync(closed, { mode: 0o700 })
    const asRoot = process.getuid?.() === 0
    // As root the embedded PostgreSQL runs as the `postgres` user, which cannot pass a 0700 directory of root's.
    if (!asRoot) NodeFs.chmodSync(closed, 0o500)
    try {
      const line = await failedStart({ DATA_DIR: NodePath.join(closed, "data") })
      expect(line).toMatch(
        asRoot ? /the postgres user cannot reach .*choose a DATA_DIR/ : /DATA_DIR .* is not usable \(EACCES/
      )
    } finally {
      NodeFs.chmodSync(closed, 0o700)
    }
  }, 60_000)

  it("a port in use", async () => {
    const line = await failedStart({ CLIENT_PORT: String(occupiedPort) })
    expect(line).toContain(`client: port ${occupiedPort} is in use`)
    expect(line).toContain("set CLIENT_PORT to a free port")
  }, 120_000)

  it("the embedded PostgreSQL's port in use", async () => {
    const line = await failedStart({ EMBEDDED_PG_PORT: String(occupiedPort) })
    expect(line).toContain(`PostgreSQL: port ${occupiedPort} is in use`)
    expect(line).toContain("set EMBEDDED_PG_PORT")
  }, 120_000)

  it("RPC_URL unreachable", async () => {
    const closedPort = await freePort()
    const line = await failedStart({
      RPC_URL: `http://127.0.0.1:${closedPort}`,
      DEPLOYMENTS_FILE: inject("devnetDeploymentsFile")
    })
    expect(line).toContain(`RPC_URL http://127.0.0.1:${closedPort} does not answer`)
  }, 120_000)

  it("an RPC_URL list with an entry that is not a URL, and an RPC_WS_URL that is not a WebSocket", async () => {
    const file = inject("devnetDeploymentsFile")
    const line = await failedStart({ RPC_URL: `${otherChain.rpcUrl}, 127.0.0.1:8545`, DEPLOYMENTS_FILE: file })
    expect(line).toContain("RPC_URL entry 2 ((invalid URL)) is not an http(s):// or ws(s):// URL: fix RPC_URL")
    const ws = await failedStart({
      RPC_URL: otherChain.rpcUrl,
      RPC_WS_URL: "https://node.example/v2/KEY",
      DEPLOYMENTS_FILE: file
    })
    expect(ws).toContain("RPC_WS_URL (https://node.example/…) is not a ws(s):// URL: fix RPC_WS_URL")
  }, 120_000)

  it("RPC_URL's chain is not DEPLOYMENTS_FILE's", async () => {
    const file = inject("devnetDeploymentsFile")
    const line = await failedStart({ RPC_URL: otherChain.rpcUrl, DEPLOYMENTS_FILE: file })
    expect(line).toContain(`RPC_URL serves chain id 1337, but DEPLOYMENTS_FILE ${file} is for chain id 31337`)
  }, 120_000)

  it("DEPLOYMENTS_FILE missing", async () => {
    const missing = NodePath.join(base, "missing.json")
    const line = await failedStart({ RPC_URL: otherChain.rpcUrl, DEPLOYMENTS_FILE: missing })
    expect(line).toContain(`DEPLOYMENTS_FILE ${missing} cannot be read (ENOENT): set DEPLOYMENTS_FILE`)
  }, 120_000)

  it("at LOG_LEVEL=Debug the same line, then the failure in full with its stack", async () => {
    const missing = NodePath.join(base, "missing.json")
    const app = spawnApp(
      { DATA_DIR: dataDir, RPC_URL: otherChain.rpcUrl, DEPLOYMENTS_FILE: missing, LOG_LEVEL: "Debug" },
      ["--services", "client"]
    )
    expect(await exitOrReady(app)).toBe(1)
    expect(errorLines(app.output())).toEqual([expect.stringContaining(`DEPLOYMENTS_FILE ${missing} cannot be read`)])
    expect(app.output()).toContain("the failure in full:")
    expect(app.output()).toMatch(/^\s+at .*Chain\.ts/m)
  }, 120_000)
})
