import { type CachedResponse, entryHeaders } from "./ResponseCache.ts"

/** Headers as flat `[name, value, …]`, the form `ServerResponse.writeHead` takes without building an object. */
export type HeaderBlock = ReadonlyArray<string>

/** What a lane answer of one entry starts with, per status, without HSTS (`[0]`) and with it (`[1]`). */
export interface EntryBlocks {
  readonly ok: readonly [HeaderBlock, HeaderBlock]
  readonly notModified: readonly [HeaderBlock, HeaderBlock]
}

const flat = (headers: Readonly<Record<string, string>>): Array<string> => Object.entries(headers).flat()

/**
 * The header blocks of the fast lane (src/platform/http/CachedFastLane.ts), in the order of the Effect path's
 * answer: the entry's own headers (ResponseCache.ts `entryHeaders`), for a 200 `content-type` and `content-length`,
 * then the security headers (HttpSecurity.ts `securityHeaderVariants`). Only `x-request-id` and the `RateLimit-*`
 * headers vary per request: the lane copies an entry's block and pushes them. A block is built at the entry's first
 * lane answer and lives as long as the entry (a WeakMap: the cache drops entries, the blocks go with them).
 */
export const makeEntryBlocks = (security: {
  readonly plain: Readonly<Record<string, string>>
  readonly tls: Readonly<Record<string, string>>
}) => {
  const plain = flat(security.plain)
  const tls = flat(security.tls)
  const blocks = new WeakMap<CachedResponse, EntryBlocks>()
  return (entry: CachedResponse): EntryBlocks => {
    let found = blocks.get(entry)
    if (found === undefined) {
      const own = flat(entryHeaders(entry))
      const ok = [...own, "content-type", "application/json", "content-length", String(entry.body.byteLength)]
      found = { ok: [ok.concat(plain), ok.concat(tls)], notModified: [own.concat(plain), own.concat(tls)] }
      blocks.set(entry, found)
    }
    return found
  }
}
