/**
 * The live MCP sessions of one endpoint, least recently used first, with the caller each was opened by. Pure
 * bookkeeping (time is passed in): McpGuard.ts decides what to do with the sessions this hands back as ended.
 */
export class McpSessionTable {
  /** Session id → owner and last use; a Map iterates in insertion order, and a use re-inserts: the front is the LRU. */
  private readonly sessions = new Map<string, { readonly owner: string; lastUsed: number }>()
  private readonly perOwner = new Map<string, number>()

  private readonly maxSessions: number
  private readonly maxPerOwner: number
  private readonly idleMs: number

  constructor(maxSessions: number, maxPerOwner: number, idleMs: number) {
    this.maxSessions = maxSessions
    this.maxPerOwner = maxPerOwner
    this.idleMs = idleMs
  }

  get size(): number {
    return this.sessions.size
  }

  has(id: string): boolean {
    return this.sessions.has(id)
  }

  /** Records a new session; returns the sessions it pushes out (the owner's oldest past its cap, then the LRU past the total cap). */
  open(id: string, owner: string, now: number): Array<string> {
    const ended = this.expire(now)
    const count = this.perOwner.get(owner) ?? 0
    if (count >= this.maxPerOwner) {
      for (const [other, s] of this.sessions) {
        if (s.owner === owner) {
          this.remove(other)
          ended.push(other)
          break
        }
      }
    }
    this.sessions.set(id, { owner, lastUsed: now })
    this.perOwner.set(owner, (this.perOwner.get(owner) ?? 0) + 1)
    while (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value!
      this.remove(oldest)
      ended.push(oldest)
    }
    return ended
  }

  /** Marks a use of `id` (it moves to the back); returns the sessions idle past the TTL. */
  touch(id: string, now: number): Array<string> {
    const ended = this.expire(now)
    const s = this.sessions.get(id)
    if (s !== undefined) {
      this.sessions.delete(id)
      s.lastUsed = now
      this.sessions.set(id, s)
    }
    return ended
  }

  /** Removes and returns the sessions unused for longer than the idle TTL. */
  expire(now: number): Array<string> {
    const ended: Array<string> = []
    for (const [id, s] of this.sessions) {
      if (now - s.lastUsed <= this.idleMs) break
      this.remove(id)
      ended.push(id)
    }
    return ended
  }

  remove(id: string): boolean {
    const s = this.sessions.get(id)
    if (s === undefined) return false
    this.sessions.delete(id)
    const left = (this.perOwner.get(s.owner) ?? 1) - 1
    if (left <= 0) this.perOwner.delete(s.owner)
    else this.perOwner.set(s.owner, left)
    return true
  }
}
