import type { EndpointHash } from "../fetch/EndpointHashes.ts"

/** Whether the answers about the deepest kept block confirm that the chain replaced it. */
export type Verdict =
  | { readonly _tag: "Confirmed"; readonly seen: string }
  | { readonly _tag: "Unconfirmed"; readonly why: string }

const shortHash = (hash: string) => `${hash.slice(0, 10)}…`

const describe = (a: EndpointHash) =>
  `${a.endpoint}: ${"failure" in a ? `no answer (${a.failure.slice(0, 80)})` : a.hash === null ? "no such block" : shortHash(a.hash)}`

/**
 * With several RPC URLs, a block below the kept hashes that differs from the one indexed is believed replaced only when
 * two endpoints, each asked directly, answer the same other hash and none answers the indexed one. A node on a stale
 * fork, a lying or lagging one, or a load balancer's bad node is one source: it cannot stop the indexer, however often
 * it is asked. An endpoint that still has the indexed block proves it was not replaced; one that fails or lacks the
 * block proves nothing either way (it is waited out with the rest).
 */
export const judgeEndpoints = (block: bigint, indexed: string, answers: ReadonlyArray<EndpointHash>): Verdict => {
  const answered = answers.flatMap((a) =>
    "failure" in a || a.hash === null ? [] : [{ endpoint: a.endpoint, hash: a.hash }]
  )
  const holders = answered.filter((a) => a.hash === indexed)
  if (holders.length > 0) {
    return {
      _tag: "Unconfirmed",
      why: `block ${block} at ${holders.map((h) => h.endpoint).join(", ")} is still the one indexed (${answers.map(describe).join("; ")})`
    }
  }
  const byHash = new Map<string, Array<string>>()
  for (const a of answered) byHash.set(a.hash, [...(byHash.get(a.hash) ?? []), a.endpoint])
  const agreed = [...byHash].sort((x, y) => y[1].length - x[1].length)[0]
  if (agreed === undefined || agreed[1].length < 2) {
    return {
      _tag: "Unconfirmed",
      why: `no two RPC endpoints agree on another block ${block} (${answers.map(describe).join("; ")})`
    }
  }
  return {
    _tag: "Confirmed",
    seen: `indexed ${indexed}, ${agreed[1].length} of ${answers.length} RPC endpoints (${agreed[1].join(", ")}) have ${agreed[0]}`
  }
}
