import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import type { TestProject } from "vitest/node"
import { projectRoot } from "../../layers/ProjectPaths.ts"
import { devnetFiles, savedDevnetIsCurrent, startDevnet } from "../../scripts/devnet/devnet.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** anvil state (JSON, for --load-state) of the deployed and seeded devnet; see test/support/AnvilChain.ts. */
    devnetStateFile: string
    /** deployments.json of that state. */
    devnetDeploymentsFile: string
  }
}

/**
 * Builds the seeded devnet state once: deploy + seed on a throwaway anvil (~1.5 s), kept in `.cache/test-devnet`
 * and reused by later runs while its fingerprint (contract bytecodes, deploy/seed sources) is current.
 * Each test file then starts its own anvil from that state (AnvilChain). `DEVNET_LOG=1` prints the deploy lines.
 */
export default async function setup(project: TestProject) {
  const cache = devnetFiles(NodePath.join(projectRoot, ".cache", "test-devnet"))
  if (!savedDevnetIsCurrent(cache)) {
    const tmp = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-test-devnet-"))
    try {
      const devnet = await startDevnet({
        dataDir: tmp,
        port: 0,
        fresh: true,
        ...(process.env.DEVNET_LOG ? { log: (line: string) => console.log(line) } : {})
      })
      await devnet.anvil.stop()
      // Each file is copied next to its target and renamed over it, the fingerprint last: a concurrent run reads
      // either the old or the new complete files (the deployment is deterministic, so both agree).
      NodeFs.mkdirSync(cache.dir, { recursive: true })
      for (const key of ["stateFile", "deploymentsFile", "fingerprintFile"] as const) {
        const part = `${cache[key]}.${process.pid}.part`
        NodeFs.copyFileSync(devnet.files[key], part)
        NodeFs.renameSync(part, cache[key])
      }
    } finally {
      NodeFs.rmSync(tmp, { recursive: true, force: true })
    }
  }
  project.provide("devnetStateFile", cache.stateFile)
  project.provide("devnetDeploymentsFile", cache.deploymentsFile)
}
