import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { parseSiweMessage } from "../../src/client-api/accounts/sessions/SiweMessage.ts"
import { checkSiwePolicy, type SiwePolicy } from "../../src/client-api/accounts/sessions/SiwePolicy.ts"

/**
 * Issue 23 M4: in production (SIWE_REQUIRE_COMPLETE) a sign-in message must carry the domain line, a URI on one of
 * SIWE_DOMAINS and a Chain ID. The two-line message a phishing page asks a victim to personal_sign (no domain line,
 * so the wallet shows no origin warning) is refused.
 */
const address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const nonce = "abcdef0123456789"
const production: SiwePolicy = { domains: ["app.example.com"], chainIds: [8453], complete: true }
const now = new Date("2026-11-27T12:00:00Z")

const fields = (message: string) => {
  const parsed = parseSiweMessage(message)
  if (Result.isFailure(parsed)) throw new Error(parsed.failure.message)
  return parsed.success
}

const full = (overrides: { domain?: string; uri?: string | undefined; chainId?: number | undefined } = {}) => {
  const lines = [
    `${overrides.domain ?? "app.example.com"} wants you to sign in with your Ethereum account:`,
    `${address}`,
    "",
    "Sign in to Fire.",
    ""
  ]
  const uri = "uri" in overrides ? overrides.uri : "https://app.example.com/login"
  if (uri !== undefined) lines.push(`URI: ${uri}`)
  lines.push("Version: 1")
  const chainId = "chainId" in overrides ? overrides.chainId : 8453
  if (chainId !== undefined) lines.push(`Chain ID: ${chainId}`)
  lines.push(`Nonce: ${nonce}`, "Issued At: 2026-11-27T11:59:00Z")
  return lines.join("\n")
}

const codeOf = (message: string, policy: SiwePolicy = production) =>
  checkSiwePolicy(fields(message), policy, now)?.code ?? "ok"

describe("complete SIWE messages in production (issue 23 M4)", () => {
  it("a full message on the server's domain passes", () => {
    assert.strictEqual(codeOf(full()), "ok")
  })

  it("the two-line phishing form (address, nonce) is refused", () => {
    assert.strictEqual(codeOf(`${address}\nNonce: ${nonce}`), "SIWE_DOMAIN_MISMATCH")
    assert.strictEqual(codeOf(`${address}\n\nNonce: ${nonce}`), "SIWE_DOMAIN_MISMATCH")
  })

  it("a message without a URI, or with a URI on another host, is refused", () => {
    assert.strictEqual(codeOf(full({ uri: undefined })), "SIWE_URI_NOT_ALLOWED")
    assert.strictEqual(codeOf(full({ uri: "https://evil.example.net/login" })), "SIWE_URI_NOT_ALLOWED")
  })

  it("a message without a Chain ID is refused", () => {
    assert.strictEqual(codeOf(full({ chainId: undefined })), "SIWE_CHAIN_NOT_SUPPORTED")
  })

  it("in development (not complete) the short forms still pass, as before", () => {
    const development: SiwePolicy = { domains: [], chainIds: [] }
    assert.strictEqual(codeOf(`${address}\nNonce: ${nonce}`, development), "ok")
    assert.strictEqual(codeOf(full({ uri: undefined, chainId: undefined }), development), "ok")
  })
})
