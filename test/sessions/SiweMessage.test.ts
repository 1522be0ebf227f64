import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { checkSiwePolicy } from "../../src/client-api/accounts/sessions/SiwePolicy.ts"
import {
  formatSiweMessage,
  isTimestamp,
  parseSiweMessage,
  type SiweFields
} from "../../src/client-api/accounts/sessions/SiweMessage.ts"
import { readVectors } from "./siweVectors.ts"

/** Vector field sets write an absent optional field as `null` (e.g. `scheme`); the parser leaves it out. */
const withoutNulls = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined))

const positives = readVectors<{ message: string; fields: Record<string, unknown> }>("parsing_positive.json")
const negatives = readVectors<string>("parsing_negative.json")
const negativeObjects = readVectors<Record<string, unknown>>("parsing_negative_objects.json")

describe("SIWE conformance: parsing", () => {
  it("has the expected number of vectors (19 positive, 29 negative, 18 negative objects)", () => {
    assert.strictEqual(Object.keys(positives).length, 19)
    assert.strictEqual(Object.keys(negatives).length, 29)
    assert.strictEqual(Object.keys(negativeObjects).length, 18)
  })

  for (const [name, { message, fields }] of Object.entries(positives)) {
    it(`positive: ${name} → parses to exactly the given fields, and formats back to the same text`, () => {
      const parsed = parseSiweMessage(message)
      assert.isTrue(Result.isSuccess(parsed), Result.isFailure(parsed) ? parsed.failure.message : "")
      const value = (parsed as Result.Success<SiweFields, never>).success
      assert.deepStrictEqual(withoutNulls({ ...value }), withoutNulls(fields))
      const formatted = formatSiweMessage(value)
      assert.isTrue(Result.isSuccess(formatted))
      assert.strictEqual((formatted as Result.Success<string, never>).success, message)
    })
  }

  for (const [name, message] of Object.entries(negatives)) {
    it(`negative: ${name} → rejected`, () => {
      const parsed = parseSiweMessage(message)
      assert.isTrue(
        Result.isFailure(parsed),
        `accepted: ${JSON.stringify(Result.isSuccess(parsed) ? parsed.success : "")}`
      )
    })
  }

  for (const [name, fields] of Object.entries(negativeObjects)) {
    it(`negative object: ${name} → no message is built`, () => {
      assert.isTrue(Result.isFailure(formatSiweMessage(fields)))
    })
  }
})

describe("SIWE parser: the minimal form and its edges", () => {
  const address = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"

  it("accepts just the address line and a Nonce line, with or without the domain line", () => {
    const bare = parseSiweMessage(`${address}\n\nNonce: abcd1234`)
    assert.deepStrictEqual(Result.getOrThrow(bare), { address, nonce: "abcd1234" })
    const withDomain = parseSiweMessage(
      `example.com wants you to sign in with your Ethereum account:\n${address}\n\nNonce: abcd1234`
    )
    assert.deepStrictEqual(Result.getOrThrow(withDomain), { domain: "example.com", address, nonce: "abcd1234" })
  })

  it("accepts the address line directly followed by the Nonce line (no blank line)", () => {
    assert.deepStrictEqual(Result.getOrThrow(parseSiweMessage(`${address}\nNonce: abcd1234`)), {
      address,
      nonce: "abcd1234"
    })
    assert.deepStrictEqual(
      Result.getOrThrow(
        parseSiweMessage(`example.com wants you to sign in with your Ethereum account:\n${address}\nNonce: abcd1234`)
      ),
      { domain: "example.com", address, nonce: "abcd1234" }
    )
    // Any tagged line may come first, in the usual order.
    assert.deepStrictEqual(
      Result.getOrThrow(
        parseSiweMessage(`${address}\nURI: https://example.com\nNonce: abcd1234\nIssued At: 2030-01-01T00:00:00Z`)
      ),
      { address, uri: "https://example.com", nonce: "abcd1234", issuedAt: "2030-01-01T00:00:00Z" }
    )
  })

  it("accepts one trailing newline", () => {
    assert.deepStrictEqual(Result.getOrThrow(parseSiweMessage(`${address}\n\nNonce: abcd1234\n`)), {
      address,
      nonce: "abcd1234"
    })
    assert.deepStrictEqual(Result.getOrThrow(parseSiweMessage(`${address}\nNonce: abcd1234\n`)), {
      address,
      nonce: "abcd1234"
    })
    assert.deepStrictEqual(
      Result.getOrThrow(parseSiweMessage(`${address}\nNonce: abcd1234\nResources:\n- https://example.com/a\n`)),
      { address, nonce: "abcd1234", resources: ["https://example.com/a"] }
    )
  })

  it("accepts CRLF line endings (read as LF)", () => {
    assert.deepStrictEqual(Result.getOrThrow(parseSiweMessage(`${address}\r\n\r\nNonce: abcd1234`)), {
      address,
      nonce: "abcd1234"
    })
    assert.deepStrictEqual(Result.getOrThrow(parseSiweMessage(`${address}\r\nNonce: abcd1234\r\n`)), {
      address,
      nonce: "abcd1234"
    })
  })

  it("every conformance vector reads the same with CRLF line endings or one trailing newline", () => {
    for (const [name, { message, fields }] of Object.entries(positives)) {
      for (const variant of [
        message.replaceAll("\n", "\r\n"),
        `${message}\n`,
        `${message.replaceAll("\n", "\r\n")}\r\n`
      ]) {
        const parsed = parseSiweMessage(variant)
        assert.isTrue(Result.isSuccess(parsed), `${name}: ${Result.isFailure(parsed) ? parsed.failure.message : ""}`)
        assert.deepStrictEqual(withoutNulls({ ...Result.getOrThrow(parsed) }), withoutNulls(fields), name)
      }
    }
    for (const [name, message] of Object.entries(negatives)) {
      for (const variant of [message.replaceAll("\n", "\r\n"), `${message}\n`]) {
        assert.isTrue(Result.isFailure(parseSiweMessage(variant)), `${name}: ${JSON.stringify(variant)}`)
      }
    }
  })

  it("rejects a message without a Nonce line, a second trailing newline, a repeated line, an unknown line, or a squeezed layout", () => {
    for (const message of [
      `${address}\n\nURI: https://example.com`,
      `${address}\nURI: https://example.com\n`,
      `${address}\n\nNonce: abcd1234\n\n`,
      `${address}\nNonce: abcd1234\r\n\r\n`,
      `${address}\n\nNonce: abcd1234\nNonce: abcd1234`,
      `${address}\n\nNonce: abcd1234\nColor: blue`,
      // Without the blank line, only a tagged line may follow the address: a statement keeps its blank lines.
      `${address}\nSign in to Fire\n\nNonce: abcd1234`,
      `${address}\nSign in to Fire\nNonce: abcd1234`,
      `${address}\n\nSign in to Fire\nNonce: abcd1234`,
      `${address}\n\n\n\nNonce: abcd1234`,
      // A lone CR is not a line break.
      `${address}\r\rNonce: abcd1234`,
      `${address}\n\nNonce: abcd1234\r`,
      `\n${address}\nNonce: abcd1234`,
      `${address}\n`,
      ""
    ]) {
      assert.isTrue(Result.isFailure(parseSiweMessage(message)), JSON.stringify(message))
    }
  })

  it("refuses impossible calendar dates that Date.parse would roll over", () => {
    assert.isFalse(isTimestamp("2022-02-31T17:09:38.578Z"))
    assert.isFalse(isTimestamp("2023-02-29T00:00:00Z"))
    assert.isTrue(isTimestamp("2024-02-29T00:00:00Z"))
    assert.isFalse(isTimestamp("2024-01-01T24:00:00Z"))
    assert.isTrue(isTimestamp("2024-01-01T23:59:59.123+05:30"))
  })
})

describe("SIWE policy: domain, URI scheme, chain, validity window", () => {
  const base: SiweFields = { address: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", nonce: "abcd1234" }
  const now = new Date("2030-01-01T00:00:00Z")
  const open = { domains: [], chainIds: [] }

  it("passes a minimal message when nothing is configured", () => {
    assert.isUndefined(checkSiwePolicy(base, open, now))
  })

  it("binds the domain when SIWE_DOMAINS is configured, and then requires it", () => {
    const policy = { domains: ["app.example.com"], chainIds: [] }
    assert.strictEqual(checkSiwePolicy(base, policy, now)?.code, "SIWE_DOMAIN_MISMATCH")
    assert.strictEqual(checkSiwePolicy({ ...base, domain: "evil.example" }, policy, now)?.code, "SIWE_DOMAIN_MISMATCH")
    assert.isUndefined(checkSiwePolicy({ ...base, domain: "APP.example.com" }, policy, now))
  })

  it("allows https URIs, http only on loopback, nothing else", () => {
    assert.isUndefined(checkSiwePolicy({ ...base, uri: "https://app.example.com/login" }, open, now))
    assert.isUndefined(checkSiwePolicy({ ...base, uri: "http://localhost:3000" }, open, now))
    assert.strictEqual(
      checkSiwePolicy({ ...base, uri: "http://app.example.com" }, open, now)?.code,
      "SIWE_URI_NOT_ALLOWED"
    )
    assert.strictEqual(
      checkSiwePolicy({ ...base, uri: "ftp://app.example.com" }, open, now)?.code,
      "SIWE_URI_NOT_ALLOWED"
    )
    assert.strictEqual(
      checkSiwePolicy({ ...base, scheme: "http", domain: "app.example.com" }, open, now)?.code,
      "SIWE_URI_NOT_ALLOWED"
    )
  })

  it("checks Chain ID against the configured chains", () => {
    const policy = { domains: [], chainIds: [31337] }
    assert.isUndefined(checkSiwePolicy({ ...base, chainId: 31337 }, policy, now))
    assert.strictEqual(checkSiwePolicy({ ...base, chainId: 1 }, policy, now)?.code, "SIWE_CHAIN_NOT_SUPPORTED")
  })

  it("checks Expiration Time and Not Before against the clock", () => {
    assert.strictEqual(
      checkSiwePolicy({ ...base, expirationTime: "2029-12-31T23:59:59Z" }, open, now)?.code,
      "SIWE_MESSAGE_EXPIRED"
    )
    assert.strictEqual(
      checkSiwePolicy({ ...base, notBefore: "2030-01-01T00:00:01Z" }, open, now)?.code,
      "SIWE_NOT_YET_VALID"
    )
    assert.isUndefined(
      checkSiwePolicy({ ...base, notBefore: "2029-01-01T00:00:00Z", expirationTime: "2031-01-01T00:00:00Z" }, open, now)
    )
  })
})
