/**
 * A diagnostic for the quote engine's tail (scripts/bench-quote-scale.ts): when QUOTE_WORKER_GC_CHANNEL names a
 * BroadcastChannel, each garbage-collection pause of this worker thread is posted there as a `GcPause`, so that the
 * thread that asked for a quote can tell whether a slow one waited for the worker's GC. The main thread's own pauses
 * are visible to it directly (v8.GCProfiler); another thread's are not. Off (no observer, no channel) when unset.
 */
import { constants, PerformanceObserver, performance } from "node:perf_hooks"
import { BroadcastChannel } from "node:worker_threads"

export interface GcPause {
  /** When the pause began, epoch ms (`performance.timeOrigin` + the entry's start: comparable across threads). */
  readonly startedAt: number
  readonly ms: number
  readonly kind: "minor" | "major" | "incremental" | "weak-callbacks" | "other"
}

const kindOf = (kind: number | undefined): GcPause["kind"] => {
  switch (kind) {
    case constants.NODE_PERFORMANCE_GC_MINOR:
      return "minor"
    case constants.NODE_PERFORMANCE_GC_MAJOR:
      return "major"
    case constants.NODE_PERFORMANCE_GC_INCREMENTAL:
      return "incremental"
    case constants.NODE_PERFORMANCE_GC_WEAKCB:
      return "weak-callbacks"
    default:
      return "other"
  }
}

/**
 * Starts posting this thread's GC pauses when `channelName` is set (the worker reads it from the environment);
 * answers how to stop.
 */
export const postGcPauses = (channelName: string | undefined): (() => void) => {
  if (channelName === undefined || channelName === "") return () => {}
  const channel = new BroadcastChannel(channelName)
  channel.unref()
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const pause: GcPause = {
        startedAt: performance.timeOrigin + entry.startTime,
        ms: entry.duration,
        kind: kindOf((entry as { readonly detail?: { readonly kind?: number } }).detail?.kind)
      }
      channel.postMessage(pause)
    }
  })
  observer.observe({ entryTypes: ["gc"] })
  return () => {
    observer.disconnect()
    channel.close()
  }
}
