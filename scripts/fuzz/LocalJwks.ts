import { exportJWK, generateKeyPair } from "jose"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A JWKS on a local port, so the fuzzed stack has identity-provider login configured (IDP_*): without it
 * `POST /v1/session/create` answers 503 IDP_NOT_CONFIGURED by design, which would hide the route's real checks.
 */
export const startLocalJwks = async () => {
  const { publicKey } = await generateKeyPair("RS256")
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "fuzz", alg: "RS256", use: "sig" }] })
  const server = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end(jwks))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    env: {
      IDP_ISSUER: "https://idp.fuzz.invalid",
      IDP_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`,
      IDP_AUDIENCE: "fire-fuzz"
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The fuzz's admin wallet (ADMIN_WALLETS), a fixed test-only key: the `/admin` routes get an admin session. */
export const FUZZ_ADMIN_KEY = "0x46757a7a41646d696e4b65792d746573742d6f6e6c792d6e6f742d612d736563" as const
