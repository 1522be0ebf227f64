import { Effect, Layer, Metric } from "effect"
import { IndexerStatus } from "./IndexerStatus.ts"
import { registerCollector } from "../platform/metrics/MetricsText.ts"

const gauge = (name: string, description: string) => Metric.gauge(name, { description })
const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })

const indexedBlock = gauge("indexer_indexed_block", "Last block whose rows are committed (the checkpoint)")
const headBlock = gauge("indexer_head_block", "Chain head seen at the indexer's last poll")
const lagBlocks = gauge("indexer_lag_blocks", "Head minus checkpoint, in blocks")
const lagSeconds = gauge("indexer_lag_seconds", "Seconds between now and the timestamp of the last indexed block")
const ready = gauge("indexer_ready", "1 once the indexer reached the head it saw and follows it")
const writer = gauge("indexer_writer", "1 when this process holds the writer lock; 0 while it waits for it (standby)")
const eventsPerSecond = gauge("indexer_events_per_second", "Logs committed per second over the last batches")
const events = counter("indexer_events_total", "Logs committed since the process started")
const reorgs = counter("indexer_reorgs_total", "Reorgs handled since the process started")

/**
 * Indexer height and lag on `/metrics`: the status snapshot is read at scrape time (IndexerStatus is in memory),
 * so the gauges are as fresh as the scrape. Alert on `indexer_lag_seconds` (and on no process with
 * `indexer_writer == 1`).
 */
export const IndexerMetricsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const status = yield* IndexerStatus
    const counted = { events: 0, reorgs: 0 }
    yield* registerCollector(
      Effect.gen(function* () {
        const s = yield* status.get
        const chain = { chain_id: String(s.chainId) }
        const set = (metric: Metric.Metric<number, unknown>, value: number | bigint | null) =>
          value === null ? Effect.void : Metric.update(Metric.withAttributes(metric, chain), Number(value))
        yield* set(indexedBlock, s.lastIndexedBlock)
        yield* set(headBlock, s.head)
        yield* set(lagBlocks, s.lagBlocks)
        yield* set(lagSeconds, s.lagSeconds)
        yield* set(ready, s.ready ? 1 : 0)
        yield* set(writer, s.phase === "waiting-for-lock" ? 0 : 1)
        yield* set(eventsPerSecond, s.eventsPerSecond)
        yield* set(events, Math.max(0, s.eventsTotal - counted.events))
        yield* set(reorgs, Math.max(0, s.reorgs - counted.reorgs))
        counted.events = Math.max(counted.events, s.eventsTotal)
        counted.reorgs = Math.max(counted.reorgs, s.reorgs)
      })
    )
  })
)
