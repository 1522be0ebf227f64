import { Effect } from "effect"

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/**
 * A strict reader of the Prometheus text format 0.0.4: every line is a `# HELP`, a `# TYPE` (declared once, before
 * its samples) or a sample; anything else throws, so a malformed exposition fails the test that reads it.
 */
export const parsePrometheus = (text: string): { samples: Array<Sample>; types: Map<string, string> } => {
  const samples: Array<Sample> = []
  const types = new Map<string, string>()
  for (const line of text.split("\n")) {
    if (line === "") continue
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type !== null) {
      if (types.has(type[1]!)) throw new Error(`TYPE declared twice: ${line}`)
      types.set(type[1]!, type[2]!)
      continue
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue
    const m = sampleLine.exec(line)
    if (m === null) throw new Error(`not a Prometheus line: ${JSON.stringify(line)}`)
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[3] ?? "").matchAll(labelPair)) labels[k!] = v!
    const family = m[1]!.replace(/_(bucket|sum|count)$/, "")
    if (!types.has(m[1]!) && !types.has(family)) throw new Error(`sample before its TYPE: ${line}`)
    samples.push({ name: m[1]!, labels, value: m[4] === "+Inf" ? Infinity : Number(m[4]) })
  }
  return { samples, types }
}

/** Sum of the samples named `name` whose labels include `labels`. */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0)

export const scrape = (baseUrl: string) =>
  Effect.promise(async () => {
    const res = await fetch(`${baseUrl}/metrics`)
    const text = await res.text()
    return { status: res.status, contentType: res.headers.get("content-type") ?? "", text, ...parsePrometheus(text) }
  })
