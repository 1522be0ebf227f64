import { type AbiEvent, decodeEventLog } from "viem"
import {
  erc20Events,
  factoryEvents,
  fuelVaultEvents,
  graduatorEvents,
  launchEvents,
  poolEvents,
  positionManagerEvents,
  registryEvents,
  streamEvents,
  topics
} from "../Abis.ts"
import type { RawLog } from "../fetch/ChainReader.ts"
import { compileFastDecoder, type FastDecoder } from "./FastDecode.ts"

/** What kind of contract emitted a log; decides the ABI it is decoded with. */
export type SourceKind =
  | "launch"
  | "graduator"
  | "fuelVault"
  | "stream"
  | "registry"
  | "factory"
  | "positionManager"
  | "token"
  | "pool"

export const abiOf: Record<SourceKind, ReadonlyArray<AbiEvent>> = {
  launch: launchEvents,
  graduator: graduatorEvents,
  fuelVault: fuelVaultEvents,
  stream: streamEvents,
  registry: registryEvents,
  factory: factoryEvents,
  positionManager: positionManagerEvents,
  token: erc20Events,
  pool: poolEvents
}

// topic0 → the one event it selects, per kind: decodeEventLog then hashes one signature per log instead of one per
// ABI entry (it looks the event up by hashing each entry).
const eventByTopic = Object.fromEntries(
  Object.entries(abiOf).map(([kind, events]) => [kind, new Map(events.map((e) => [topics([e])[0]!, [e] as const]))])
) as Record<SourceKind, Map<string, readonly [AbiEvent]>>

// topic0 → a word-by-word decoder, per kind, for the events whose inputs are all plain words (FastDecode.ts).
const fastByTopic = Object.fromEntries(
  Object.entries(abiOf).map(([kind, events]) => [
    kind,
    new Map(
      events.flatMap((e) => {
        const fast = compileFastDecoder(e)
        return fast === undefined ? [] : [[topics([e])[0]!, fast] as const]
      })
    )
  ])
) as Record<SourceKind, Map<string, FastDecoder>>

export const topicsOf = (kinds: ReadonlyArray<SourceKind>) => [...new Set(kinds.flatMap((k) => topics(abiOf[k])))]

/** A decoded log. `args` follow the ABI's parameter names; addresses are lowercased. */
export interface DecodedLog {
  readonly kind: SourceKind
  readonly name: string
  readonly args: Readonly<Record<string, unknown>>
  readonly log: RawLog
}

const lowerAddresses = (args: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(args)) {
    out[k] =
      typeof v === "string" && v.length === 42 && v.startsWith("0x")
        ? v.toLowerCase()
        : Array.isArray(v)
          ? v.map((x) => (typeof x === "string" && x.length === 42 && x.startsWith("0x") ? x.toLowerCase() : x))
          : v
  }
  return out
}

/** One log with viem (the reference decoder); undefined when it is not an event of its emitter's ABI. */
const decodeWithViem = (
  log: RawLog,
  abi: readonly [AbiEvent]
): { name: string; args: Record<string, unknown> } | undefined => {
  try {
    const decoded = decodeEventLog({
      abi,
      data: log.data,
      topics: log.topics as [`0x${string}`, ...Array<`0x${string}`>],
      strict: true
    })
    return { name: decoded.eventName, args: lowerAddresses(decoded.args as unknown as Record<string, unknown>) }
  } catch {
    // not an event of this emitter's ABI: ignored
    return undefined
  }
}

const decodeWith = (
  logs: ReadonlyArray<RawLog>,
  kindOf: (address: string) => SourceKind | undefined,
  fast: boolean
): Array<DecodedLog> => {
  const out: Array<DecodedLog> = []
  for (const log of logs) {
    const kind = kindOf(log.address)
    if (kind === undefined) continue
    const topic0 = log.topics[0]
    if (topic0 === undefined) continue
    if (fast) {
      const decoder = fastByTopic[kind].get(topic0)
      const args = decoder?.decode(log.topics, log.data)
      if (args !== undefined) {
        out.push({ kind, name: decoder!.name, args, log })
        continue
      }
    }
    const abi = eventByTopic[kind].get(topic0)
    if (abi === undefined) continue
    const decoded = decodeWithViem(log, abi)
    if (decoded !== undefined) out.push({ kind, name: decoded.name, args: decoded.args, log })
  }
  return out
}

/**
 * The decode stage: logs → typed events, by the kind of their emitter. Events made of plain words (Swap, Transfer,
 * Mint, Burn, Collect, ...) are read word by word (FastDecode.ts); the others, and any log the fast path finds
 * unusual, go through viem's `decodeEventLog`. A log that does not match its emitter's ABI (another event with the
 * same topic count, a proxy's extra events) is dropped: the indexer only stores what it understands.
 */
export const decodeLogs = (
  logs: ReadonlyArray<RawLog>,
  kindOf: (address: string) => SourceKind | undefined
): Array<DecodedLog> => decodeWith(logs, kindOf, true)

/** The same with viem only: the reference the fast path is tested against. */
export const decodeLogsWithViem = (
  logs: ReadonlyArray<RawLog>,
  kindOf: (address: string) => SourceKind | undefined
): Array<DecodedLog> => decodeWith(logs, kindOf, false)
