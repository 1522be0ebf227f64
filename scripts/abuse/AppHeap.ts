import WebSocket from "ws"

/**
 * The app's V8 heap after a full GC, read through its inspector (the bench starts the app with `--inspect` on a port
 * of its own): tells memory the app still holds from memory V8 took while allocating fast and has not given back.
 */
export interface HeapFigures {
  /** Bytes live after a full GC. */
  readonly heapUsed: number
  /** Bytes V8 has reserved for the heap. */
  readonly heapTotal: number
  readonly rss: number
}

export const heapAfterGc = async (inspectPort: number): Promise<HeapFigures> => {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as ReadonlyArray<{
    webSocketDebuggerUrl: string
  }>
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject))
  let nextId = 0
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { value?: unknown } }>((resolve) => {
      const id = ++nextId
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: { result?: { value?: unknown } } }
        if (message.id !== id) return
        socket.off("message", onMessage)
        resolve(message.result ?? {})
      }
      socket.on("message", onMessage)
      socket.send(JSON.stringify({ id, method, params }))
    })
  try {
    await call("HeapProfiler.enable")
    await call("HeapProfiler.collectGarbage")
    const answer = await call("Runtime.evaluate", {
      expression: "JSON.stringify(process.memoryUsage())",
      returnByValue: true
    })
    return JSON.parse(String(answer.result?.value)) as HeapFigures
  } finally {
    socket.close()
  }
}
