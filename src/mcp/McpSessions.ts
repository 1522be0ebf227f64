/**
 * The credentials an MCP session has collected: the JWT of its last sign-in (a tool whose route issues a session).
 * Keyed by `Mcp-Session-Id` on the HTTP transport (one process-wide key on stdio). The session id is the server's
 * random UUID, so it is as secret as the JWT it stands for. Bounded: the oldest sessions are forgotten first.
 */
export class McpSessions {
  private readonly tokens = new Map<string, { readonly token: string; readonly expiresAt: number }>()
  private readonly capacity: number
  constructor(capacity = 10_000) {
    this.capacity = capacity
  }

  get(key: string, now = Date.now()): string | undefined {
    const entry = this.tokens.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= now) {
      this.tokens.delete(key)
      return undefined
    }
    return entry.token
  }

  set(key: string, token: string, expiresAt: number): void {
    this.tokens.delete(key)
    this.tokens.set(key, { token, expiresAt })
    while (this.tokens.size > this.capacity) this.tokens.delete(this.tokens.keys().next().value!)
  }

  clear(key: string): void {
    this.tokens.delete(key)
  }
}
