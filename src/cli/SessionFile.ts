import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"

/** What `fire-api login` keeps between commands: `$FIRE_API_HOME/session.json` (default `~/.fire-api`), mode 0600. */
export interface StoredSession {
  readonly clientUrl: string
  readonly address: string
  readonly token: string
  readonly expiresAt: string
}

const home = () => process.env["FIRE_API_HOME"] ?? NodePath.join(NodeOs.homedir(), ".fire-api")
export const sessionPath = () => NodePath.join(home(), "session.json")

export const readSession = (): StoredSession | undefined => {
  try {
    const session = JSON.parse(NodeFs.readFileSync(sessionPath(), "utf8")) as StoredSession
    return Date.parse(session.expiresAt) > Date.now() ? session : undefined
  } catch {
    return undefined
  }
}

export const writeSession = (session: StoredSession) => {
  NodeFs.mkdirSync(home(), { recursive: true, mode: 0o700 })
  NodeFs.writeFileSync(sessionPath(), JSON.stringify(session, null, 2), { mode: 0o600 })
}
