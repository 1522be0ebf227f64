import { Result } from "effect"
import { getAddress } from "viem"

/**
 * EIP-4361 (Sign-In with Ethereum) messages: a parser and a formatter, pure functions.
 *
 * The parser is deliberately minimal about what must be present — the address line and `Nonce:` — and strict about
 * what is present: the standard lines keep their order, each appears at most once, the layout has no stray blank
 * lines, and every value has its grammar (RFC 3986 authority and URIs, EIP-55 address, RFC 3339 timestamps with real
 * calendar dates, alphanumeric nonce of at least 8 characters, version 1). So a full EIP-4361 message and a minimal
 * one both parse, and a malformed message never does. The minimal forms, each optionally under the
 * `<domain> wants you…` line: `<address>\n\nNonce: <nonce>` (the standard layout) and `<address>\nNonce: <nonce>`
 * (no blank line — accepted only when the line after the address is a tagged line such as `Nonce:` or `URI:`; a
 * statement still needs its blank lines). Any message may also end with one newline, and may use CRLF line endings:
 * every `\r\n` is read as `\n` (a lone `\r` is not a line break). The parser only reads the text; the signature is
 * still verified over the exact string the client signed. The formatter builds the full standard message (LF, no
 * trailing newline) and requires every standard field.
 */
export interface SiweFields {
  /** Present only when the first line carries one (`https://example.com wants you…`). */
  readonly scheme?: string
  readonly domain?: string
  /** EIP-55 checksummed. */
  readonly address: string
  readonly statement?: string
  readonly uri?: string
  readonly version?: string
  readonly chainId?: number
  readonly nonce: string
  /** Timestamps are kept exactly as written (RFC 3339). */
  readonly issuedAt?: string
  readonly expirationTime?: string
  readonly notBefore?: string
  readonly requestId?: string
  readonly resources?: ReadonlyArray<string>
}

/** Why a message (or a field set) was refused; `message` names the line or field. */
export class SiweSyntaxError {
  readonly _tag = "SiweSyntaxError"
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

const HEADER_SUFFIX = " wants you to sign in with your Ethereum account:"

// RFC 3986 pieces. `pct` is a percent-encoded octet; the character classes follow the ABNF of the RFC.
const pct = "%[0-9A-Fa-f]{2}"
const unreservedSubDelims = "A-Za-z0-9\\-._~!$&'()*+,;="
const authorityRe = new RegExp(
  `^(?:(?:[${unreservedSubDelims}:]|${pct})*@)?(?:\\[[0-9A-Fa-f:.]+\\]|(?:[${unreservedSubDelims}]|${pct})+)(?::[0-9]*)?$`
)
const uriRe = new RegExp(`^([A-Za-z][A-Za-z0-9+\\-.]*):((?:[${unreservedSubDelims}:@/?#\\[\\]]|${pct})*)$`)
const schemeRe = /^[A-Za-z][A-Za-z0-9+\-.]*$/
const requestIdRe = new RegExp(`^(?:[${unreservedSubDelims}:@]|${pct})*$`)
const nonceRe = /^[A-Za-z0-9]{8,256}$/
const chainIdRe = /^[0-9]{1,16}$/
const addressRe = /^0x[0-9a-fA-F]{40}$/
const rfc3339Re = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/

export const isAuthority = (s: string): boolean => authorityRe.test(s)

export const isUri = (s: string): boolean => {
  const match = uriRe.exec(s)
  if (match === null) return false
  const rest = match[2]!
  if (rest.indexOf("#") !== rest.lastIndexOf("#")) return false
  if (!rest.startsWith("//")) return true
  const authority = rest.slice(2).split(/[/?#]/)[0]!
  return authority === "" || isAuthority(authority) // "file:///x" has an empty authority
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** RFC 3339 date-time with a real calendar date (`2022-02-31` is refused, where `Date.parse` would roll over). */
export const isTimestamp = (s: string): boolean => {
  const m = rfc3339Re.exec(s)
  if (m === null) return false
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false
  if (hour > 23 || minute > 59 || second > 60) return false
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false
  return true
}

export const isChecksummedAddress = (s: string): boolean => {
  if (!addressRe.test(s)) return false
  try {
    return getAddress(s) === s
  } catch {
    return false
  }
}

// The tagged lines in their required order. `Resources:` stands alone and is followed by `- <uri>` lines.
const tags = [
  ["uri", "URI: "],
  ["version", "Version: "],
  ["chainId", "Chain ID: "],
  ["nonce", "Nonce: "],
  ["issuedAt", "Issued At: "],
  ["expirationTime", "Expiration Time: "],
  ["notBefore", "Not Before: "],
  ["requestId", "Request ID: "]
] as const
type TagKey = (typeof tags)[number][0]
const isTagLine = (line: string) => line === "Resources:" || tags.some(([, prefix]) => line.startsWith(prefix))

const checkValue = (key: TagKey, value: string): string | undefined => {
  switch (key) {
    case "uri":
      return isUri(value) ? undefined : "URI is not an RFC 3986 URI"
    case "version":
      return value === "1" ? undefined : "Version must be 1"
    case "chainId":
      return chainIdRe.test(value) && Number(value) > 0 ? undefined : "Chain ID must be a positive integer"
    case "nonce":
      return nonceRe.test(value) ? undefined : "Nonce must be 8 to 256 letters or digits"
    case "issuedAt":
    case "expirationTime":
    case "notBefore":
      return isTimestamp(value) ? undefined : `${key} must be an RFC 3339 timestamp`
    case "requestId":
      return requestIdRe.test(value) ? undefined : "Request ID has characters outside RFC 3986 pchar"
  }
}

const fail = (message: string) => Result.fail(new SiweSyntaxError(message))

export const parseSiweMessage = (message: string): Result.Result<SiweFields, SiweSyntaxError> => {
  if (message.length > 8192) return fail("message longer than 8192 characters")
  const text = message.replaceAll("\r\n", "\n")
  const lines = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n")
  const fields: { -readonly [K in keyof SiweFields]?: SiweFields[K] } = {}
  let i = 0

  // Optional first line: `[scheme://]domain wants you to sign in with your Ethereum account:`
  if (lines[0]!.endsWith(HEADER_SUFFIX)) {
    let origin = lines[0]!.slice(0, -HEADER_SUFFIX.length)
    const schemeEnd = origin.indexOf("://")
    if (schemeEnd !== -1) {
      const scheme = origin.slice(0, schemeEnd)
      if (!schemeRe.test(scheme)) return fail("the scheme before the domain is malformed")
      fields.scheme = scheme
      origin = origin.slice(schemeEnd + 3)
    }
    if (!isAuthority(origin)) return fail("the domain is missing or not an RFC 3986 authority")
    fields.domain = origin
    i = 1
  }

  const address = lines[i] ?? ""
  if (!isChecksummedAddress(address)) return fail("the address line is missing or not an EIP-55 checksummed address")
  fields.address = address
  i++

  // Then the tagged lines, either at once (the shortest minimal form) or after a blank line. Between that blank line
  // and the tagged lines: nothing (minimal form), a blank line (no statement), or the statement and one blank line.
  if (lines[i] === undefined || !isTagLine(lines[i]!)) {
    if (lines[i] !== "") return fail("a blank line or a tagged line (such as `Nonce:`) must follow the address")
    i++
    if (lines[i] === "") {
      i++
    } else if (lines[i] !== undefined && !isTagLine(lines[i]!)) {
      fields.statement = lines[i]!
      i++
      if (lines[i] !== "") return fail("the statement must be one line followed by a blank line")
      i++
    }
  }

  let last = -1
  for (; i < lines.length; i++) {
    const line = lines[i]!
    if (line === "Resources:") {
      const resources = lines.slice(i + 1)
      for (const entry of resources) {
        if (!entry.startsWith("- ") || !isUri(entry.slice(2))) return fail("each resource must be a line `- <URI>`")
      }
      fields.resources = resources.map((entry) => entry.slice(2))
      break
    }
    const index = tags.findIndex(([, prefix]) => line.startsWith(prefix))
    if (index === -1) return fail(line === "" ? "unexpected blank line" : `unexpected line "${line.slice(0, 40)}"`)
    if (index <= last) return fail(`"${tags[index]![1].trim()}" is repeated or out of order`)
    last = index
    const [key, prefix] = tags[index]!
    const value = line.slice(prefix.length)
    const problem = checkValue(key, value)
    if (problem !== undefined) return fail(problem)
    if (key === "chainId") fields.chainId = Number(value)
    else fields[key] = value
  }
  if (fields.nonce === undefined) return fail("the Nonce line is missing")
  return Result.succeed(fields as SiweFields)
}

/** Builds the standard EIP-4361 text; refuses a field set that could not be parsed back to itself. */
export const formatSiweMessage = (
  fields: Partial<Record<keyof SiweFields, unknown>>
): Result.Result<string, SiweSyntaxError> => {
  const str = (key: keyof SiweFields) => (typeof fields[key] === "string" ? (fields[key] as string) : undefined)
  const required = ["domain", "address", "uri", "version", "nonce", "issuedAt"] as const
  for (const key of required) if (str(key) === undefined) return fail(`${key} is required`)
  if (typeof fields.chainId !== "number" || !Number.isSafeInteger(fields.chainId) || fields.chainId <= 0) {
    return fail("chainId must be a positive integer")
  }
  if (fields.scheme !== undefined && !schemeRe.test(String(fields.scheme))) return fail("scheme is malformed")
  if (!isAuthority(str("domain")!)) return fail("domain is not an RFC 3986 authority")
  if (!isChecksummedAddress(str("address")!)) return fail("address is not EIP-55 checksummed")
  const statement = str("statement")
  if (statement !== undefined && /[\r\n]/.test(statement)) return fail("statement must be a single line")
  const resources = fields.resources
  if (
    resources !== undefined &&
    (!Array.isArray(resources) || !resources.every((r) => typeof r === "string" && isUri(r)))
  ) {
    return fail("every resource must be an RFC 3986 URI")
  }
  const tagged: Array<string> = []
  for (const [key, prefix] of tags) {
    const value = key === "chainId" ? String(fields.chainId) : str(key)
    if (value === undefined) continue
    const problem = checkValue(key, value)
    if (problem !== undefined) return fail(problem)
    tagged.push(`${prefix}${value}`)
  }
  const origin = fields.scheme === undefined ? str("domain")! : `${String(fields.scheme)}://${str("domain")!}`
  const head = [`${origin}${HEADER_SUFFIX}`, str("address")!, "", ...(statement === undefined ? [""] : [statement, ""])]
  const tail = resources === undefined ? [] : ["Resources:", ...(resources as Array<string>).map((r) => `- ${r}`)]
  return Result.succeed([...head, ...tagged, ...tail].join("\n"))
}
