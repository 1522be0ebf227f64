import { decodeAbiParameters, type Hex, hexToBytes } from "viem"

/**
 * The answer of an ERC-20 `name()` or `symbol()` call as text. Most tokens return an ABI `string`; a few old ones
 * (MKR, SAI) return `bytes32`: its trailing zero bytes are padding, the rest is UTF-8. An ABI string is at least 64
 * bytes (offset + length), so a 32-byte answer is a bytes32. NUL characters are removed (PostgreSQL text cannot hold
 * them). Null when the answer is neither (empty, or garbage).
 */
export const decodeTokenText = (data: Hex): string | null => {
  const bytes = hexToBytes(data)
  if (bytes.length === 32) {
    let end = 32
    while (end > 0 && bytes[end - 1] === 0) end--
    return clean(new TextDecoder("utf-8").decode(bytes.subarray(0, end)))
  }
  if (bytes.length < 64) return null
  try {
    return clean(decodeAbiParameters([{ type: "string" }], data)[0])
  } catch {
    return null
  }
}

const clean = (text: string) => text.replaceAll("\u0000", "")

/** Selectors of the two text getters (`name()`, `symbol()`), called raw so either return type can be decoded. */
export const TOKEN_TEXT_SELECTORS = { name: "0x06fdde03", symbol: "0x95d89b41" } as const
