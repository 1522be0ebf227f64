import { Worker } from "node:worker_threads"

export interface WellBehavedConfig {
  readonly client: string
  readonly exchange: string
  /** `{token}-{chainId}` ids of the exchange's `GET /api/v1/tokens/{id}`. */
  readonly tokenIds: ReadonlyArray<string>
  readonly chainId: number
  readonly tokensPerSecond: number
  readonly signInsPerSecond: number
  readonly maxInFlight: number
}

export interface Sample {
  readonly kind: "token" | "signin"
  /** When the request was sent (Date.now()). */
  readonly at: number
  readonly ms: number
  /** 0: no answer (connection error or timeout). */
  readonly status: number
}

export interface Figures {
  readonly n: number
  readonly p50: number
  readonly p99: number
  /** Answers other than 200, and requests without an answer. */
  readonly failures: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export interface Window {
  readonly from: number
  readonly to: number
}

/** Whether `s` was in flight (sent to answered) during any of `periods`. */
const inFlightDuring = (s: Sample, periods: ReadonlyArray<Window>) =>
  periods.some((p) => s.at < p.to && s.at + s.ms >= p.from)

/**
 * p50/p99 of the samples of `kind` sent within any of `windows` ([from, to) each), but those in flight during any of
 * `excluding` (the bench's own forced GCs: Attack.ts, `excluded`).
 */
export const figuresOf = (
  samples: ReadonlyArray<Sample>,
  kind: Sample["kind"],
  windows: ReadonlyArray<Window>,
  excluding: ReadonlyArray<Window> = []
): Figures => {
  const inWindow = samples.filter(
    (s) => s.kind === kind && windows.some((w) => s.at >= w.from && s.at < w.to) && !inFlightDuring(s, excluding)
  )
  const ok = inWindow
    .filter((s) => s.status === 200)
    .map((s) => s.ms)
    .sort((a, b) => a - b)
  return {
    n: inWindow.length,
    p50: percentile(ok, 50),
    p99: percentile(ok, 99),
    failures: inWindow.length - ok.length
  }
}

/** Starts the well-behaved load in a worker thread (scripts/abuse/WellBehavedWorker.ts); `stop` returns its samples. */
export const startWellBehaved = (config: WellBehavedConfig) => {
  const worker = new Worker(new URL("./WellBehavedWorker.ts", import.meta.url), { workerData: config })
  const done = new Promise<{ samples: Array<Sample>; dropped: number }>((resolve, reject) => {
    worker.once("message", resolve)
    worker.once("error", reject)
  })
  return {
    stop: async () => {
      worker.postMessage("stop")
      const result = await done
      await worker.terminate()
      return result
    }
  }
}
