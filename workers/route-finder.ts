/**
 * The Piscina worker entry (thin): decode the task, make sure the router holds the task's snapshot version, quote,
 * return the outcome as data. `makeEngine` is also what RouteFinder.layerInline runs on the main thread.
 */
import { decodeTask, type WorkerReply } from "./protocol.ts"
import { makeRouter } from "./router.ts"
import type { Router } from "./routing/types.ts"

export const makeEngine = () => {
  let router: Router | undefined
  let version = -1
  return (input: unknown): WorkerReply => {
    let task
    try {
      task = decodeTask(input)
    } catch (error) {
      return { _tag: "Failed", message: `bad task: ${String(error)}` }
    }
    try {
      if (task.sync !== null) {
        router = makeRouter(task.sync.snapshot, task.sync.config)
        version = task.version
      }
      if (router === undefined || version !== task.version) return { _tag: "Stale", have: version }
      const outcome = router.quote(task.request)
      return outcome._tag === "Found" ? { _tag: "Found", quote: outcome.quote } : { _tag: outcome._tag }
    } catch (error) {
      return { _tag: "Failed", message: error instanceof Error ? error.message : String(error) }
    }
  }
}

const engine = makeEngine()
export default engine
