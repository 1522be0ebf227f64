import { Effect } from "effect"
import { request as httpRequest } from "node:http"

/** One answer as it came on the wire: status, headers in their order, body bytes. */
export interface RawAnswer {
  readonly status: number
  /** [name, value] in the order they came on the wire, names in lower case. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Buffer
}

/** A GET with node:http (no client-side header rewriting), for tests that compare answers byte for byte. */
export const rawGet = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(
    () =>
      new Promise<RawAnswer>((resolve, reject) => {
        httpRequest(url, { headers }, (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (c: Buffer) => chunks.push(c))
          res.on("end", () => {
            const pairs: Array<readonly [string, string]> = []
            for (let i = 0; i < res.rawHeaders.length; i += 2)
              pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!])
            resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks) })
          })
        })
          .on("error", reject)
          .end()
      })
  )

export const headerOf = (answer: RawAnswer, name: string) => answer.headers.find(([n]) => n === name)?.[1]

/** The headers in order, the values of `ignored` (and always `date`) replaced by "*". */
export const comparableHeaders = (answer: RawAnswer, ignored: ReadonlyArray<string> = []) =>
  answer.headers.map(([n, v]) => (n === "date" || ignored.includes(n) ? [n, "*"] : [n, v]))
