import type { AbiEvent } from "viem"

/**
 * Decoders for events whose inputs are all 32-byte words (address, intN, uintN): each argument is read straight from
 * its topic or data word, with no ABI walk, no byte copies and no signature hashing (viem's `decodeEventLog` hashes
 * the event's signature on every call to find it in the ABI). Backfill decodes ~100k such logs per batch (Swap,
 * Transfer, Mint...), where viem took longer than the projection and the inserts together.
 *
 * The result equals viem's `decodeEventLog(..., strict: true)` with addresses lowercased (test/indexer/FastDecode.test.ts
 * checks it on random logs). Anything unusual (missing topics, short or odd-length data, a non-hex digit, a small int
 * that is not a safe integer) returns `undefined` so that the caller decodes that log with viem, which then decides
 * (and usually throws).
 */
export interface FastDecoder {
  readonly name: string
  readonly decode: (topics: ReadonlyArray<string>, data: string) => Record<string, unknown> | undefined
}

type Read = (word: string) => unknown

const TWO_256 = 1n << 256n
const HEX = /^0x[0-9a-fA-F]*$/

/** A word as viem's decodeNumber reads it: signedness over the whole 32-byte word; ≤ 48 bits as a safe number. */
const readerOf = (type: string): Read | undefined => {
  if (type === "address") return (w) => `0x${w.slice(24).toLowerCase()}`
  const m = /^(u?)int(\d*)$/.exec(type)
  if (m === null) return undefined
  const signed = m[1] === ""
  const bits = m[2] === "" ? 256 : Number(m[2])
  const big = signed
    ? (w: string) => {
        const v = BigInt(`0x${w}`)
        return w.charCodeAt(0) >= 56 /* '8' */ ? v - TWO_256 : v
      }
    : (w: string) => BigInt(`0x${w}`)
  if (bits > 48) return big
  return (w) => {
    const n = Number(big(w))
    return Number.isSafeInteger(n) ? n : undefined
  }
}

interface Slot {
  readonly name: string
  readonly read: Read
  /** Topic index (indexed) or data word index. */
  readonly at: number
  readonly indexed: boolean
}

/** A decoder for `event`, or undefined when one of its inputs is not a plain word or has no name. */
export const compileFastDecoder = (event: AbiEvent): FastDecoder | undefined => {
  // viem gives no args at all for an event without inputs (the caller then drops it): leave those to viem.
  if (event.anonymous === true || event.inputs.length === 0) return undefined
  const slots: Array<Slot> = []
  let topic = 1
  let word = 0
  for (const input of event.inputs) {
    const read = readerOf(input.type)
    if (read === undefined || input.name === undefined || input.name === "") return undefined
    slots.push({
      name: input.name,
      read,
      at: input.indexed === true ? topic++ : word++,
      indexed: input.indexed === true
    })
  }
  // viem fills the indexed arguments first, then the data ones: same key order (it shows in argsJson).
  const ordered = [...slots.filter((s) => s.indexed), ...slots.filter((s) => !s.indexed)]
  const topicCount = topic
  const dataLength = 2 + 64 * word
  return {
    name: event.name,
    decode: (topics, data) => {
      if (topics.length < topicCount) return undefined
      for (let i = 1; i < topicCount; i++) if (topics[i]!.length !== 66 || !HEX.test(topics[i]!)) return undefined
      if (word > 0 && (data.length < dataLength || data.length % 2 !== 0 || !HEX.test(data))) return undefined
      const args: Record<string, unknown> = {}
      for (const s of ordered) {
        const w = s.indexed ? topics[s.at]!.slice(2) : data.slice(2 + 64 * s.at, 66 + 64 * s.at)
        const v = s.read(w)
        if (v === undefined) return undefined
        args[s.name] = v
      }
      return args
    }
  }
}
