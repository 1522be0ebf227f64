import { type Hex, hexToBytes, keccak256 } from "viem"

/**
 * A block header's `logsBloom` (2048 bits): every log of the block sets three bits for its address and three for each
 * of its topics, taken from the item's keccak256 (the low 11 bits of its first three byte pairs). A bit not set proves
 * no log of the block has that item; a set bit may come from another item. viem has no bloom helper.
 */
const BLOOM_BYTES = 256

const bitsOf = (item: Hex): ReadonlyArray<number> => {
  const hash = hexToBytes(keccak256(item))
  return [0, 2, 4].map((i) => ((hash[i]! << 8) | hash[i + 1]!) & 2047)
}

/** Byte `BLOOM_BYTES - 1 - bit / 8` holds bit `bit` (the bloom is one big-endian number). */
const byteOf = (bit: number) => BLOOM_BYTES - 1 - (bit >> 3)
const maskOf = (bit: number) => 1 << (bit & 7)

export const isZeroBloom = (bloom: Hex) => /^0x0*$/.test(bloom)

/** May a log with `item` (an address or a topic) be in the block? False is certain; true may be a collision. */
export const inBloom = (bloom: Hex, item: Hex): boolean => {
  const bytes = hexToBytes(bloom)
  return bitsOf(item).every((bit) => (bytes[byteOf(bit)]! & maskOf(bit)) !== 0)
}

/** The bloom of a set of logs, as the block's header would hold it if they were all its logs. */
export const bloomOf = (logs: ReadonlyArray<{ readonly address: string; readonly topics: ReadonlyArray<Hex> }>) => {
  const out = new Uint8Array(BLOOM_BYTES)
  for (const log of logs) {
    for (const item of [log.address as Hex, ...log.topics]) {
      for (const bit of bitsOf(item)) out[byteOf(bit)] = (out[byteOf(bit)] ?? 0) | maskOf(bit)
    }
  }
  return out
}

/**
 * Do `logs` set every bit of the header's `bloom`? When they are all the block's logs they must (the header's bloom is
 * made of them); an answer missing the logs of the block (a node that does not have it yet and answers []) does not.
 */
export const coversBloom = (
  logs: ReadonlyArray<{ readonly address: string; readonly topics: ReadonlyArray<Hex> }>,
  bloom: Hex
): boolean => {
  const got = bloomOf(logs)
  const want = hexToBytes(bloom)
  return want.every((byte, i) => (byte & ~got[i]!) === 0)
}
