/**
 * What one `initialize` may make `/mcp` keep. Effect's MCP runtime keeps a session's decoded `initialize` params until
 * the session ends (McpGuard.ts ends it), and two parts of them are open: `capabilities.extensions` and `_meta` keep
 * any JSON as sent. Under MCP_MESSAGE_BYTES alone, a 16 KiB message of empty objects was thousands of objects held per
 * session, and MCP_MAX_SESSIONS of them hundreds of MB. Bounding the count of JSON values and the characters of keys
 * and strings bounds what a session holds; McpGuard.ts refuses an `initialize` past either with 400. Real clients
 * send a few dozen values (capabilities such as roots, sampling, elicitation; clientInfo with a few icons).
 */

/** Longest `clientInfo` string (name, version, title, …); the whole of `clientInfo` is held to 4× that as JSON. */
export const MAX_CLIENT_INFO_CHARS = 256

export interface InitializeBounds {
  /** MCP_INITIALIZE_VALUES: JSON values (objects, arrays, strings, numbers, …) in `params`, itself included. */
  readonly maxValues: number
  /** MCP_INITIALIZE_CHARS: characters of the keys and strings in `params`. */
  readonly maxChars: number
}

export interface InitializeProblem {
  readonly code: "INVALID_CLIENT_INFO" | "INITIALIZE_TOO_LARGE"
  readonly message: string
}

/**
 * The values and key/string characters of `value`, counted until either passes its bound (then the counts are only
 * known to exceed it). Iterative: a message may nest thousands deep; the work is bounded by the message's size.
 */
export const measureJson = (value: unknown, bounds: InitializeBounds): { values: number; chars: number } => {
  let values = 0
  let chars = 0
  const pending: Array<unknown> = [value]
  while (pending.length > 0) {
    const next = pending.pop()
    values++
    if (typeof next === "string") chars += next.length
    else if (Array.isArray(next)) for (const item of next) pending.push(item)
    else if (typeof next === "object" && next !== null)
      for (const [key, item] of Object.entries(next)) {
        chars += key.length
        pending.push(item)
      }
    if (values + pending.length > bounds.maxValues || chars > bounds.maxChars)
      return { values: values + pending.length, chars }
  }
  return { values, chars }
}

const oversizedClientInfo = (info: unknown) =>
  typeof info === "object" &&
  info !== null &&
  (Object.values(info).some((v) => typeof v === "string" && v.length > MAX_CLIENT_INFO_CHARS) ||
    JSON.stringify(info).length > 4 * MAX_CLIENT_INFO_CHARS)

/** Why `initialize` with these params must be refused, or `undefined`. */
export const initializeProblem = (params: unknown, bounds: InitializeBounds): InitializeProblem | undefined => {
  if (typeof params !== "object" || params === null) return undefined // the runtime answers malformed params
  if (oversizedClientInfo((params as { clientInfo?: unknown }).clientInfo))
    return {
      code: "INVALID_CLIENT_INFO",
      message: `clientInfo strings are limited to ${MAX_CLIENT_INFO_CHARS} characters`
    }
  const { values, chars } = measureJson(params, bounds)
  if (values > bounds.maxValues || chars > bounds.maxChars)
    return {
      code: "INITIALIZE_TOO_LARGE",
      message:
        `initialize params are limited to ${bounds.maxValues} JSON values and ${bounds.maxChars} characters of ` +
        "keys and strings (the server keeps them for the session's life)"
    }
  return undefined
}
