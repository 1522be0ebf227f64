import { Effect } from "effect"
import type { HttpClient } from "effect/http"
import { privateKeyToAccount } from "viem/accounts"
import { clientApi, exchangeApi, signIn } from "../sdk/index.ts"
import { clientTools, exchangeTools } from "../mcp/AgentTools.ts"
import { readSession, sessionPath, writeSession } from "./SessionFile.ts"

/** Where the services are: flags, then environment, then the `npm start` defaults. */
export interface Targets {
  readonly clientUrl: string
  readonly exchangeUrl: string
  readonly searchUrl: string
  readonly chainId: number
}

const progress = (line: string) => Effect.sync(() => process.stderr.write(`${line}\n`))

/** SIWE with a private key; the session is stored for the other commands and `fire-api mcp`. */
export const login = (targets: Targets, key: string) =>
  Effect.gen(function* () {
    if (!/^0x[0-9a-fA-F]{64}$/.test(key))
      return yield* Effect.fail(new Error("--key takes a private key: 0x + 64 hex digits"))
    const account = privateKeyToAccount(key as `0x${string}`)
    const api = yield* clientApi(targets.clientUrl)
    yield* progress(`→ nonce for ${account.address} from ${targets.clientUrl}`)
    const { nonce } = yield* api.sessions.getWalletNonce({ query: { address: account.address } })
    yield* progress("→ signing the EIP-4361 message")
    const payload = yield* Effect.promise(() =>
      signIn(account, { nonce, origin: targets.clientUrl, chainId: targets.chainId })
    )
    const session = yield* api.sessions.verifyWalletSignature({ payload })
    writeSession({
      clientUrl: targets.clientUrl,
      address: account.address,
      token: session.token,
      expiresAt: session.expiresAt
    })
    yield* progress(
      `✓ signed in as ${session.user.walletAddress} (user ${session.user.id}); session stored in ${sessionPath()} until ${session.expiresAt}`
    )
  })

/** The stored session, and the health of the services. */
export const status = (targets: Targets) =>
  Effect.gen(function* () {
    const stored = readSession()
    const lines: Array<string> = []
    if (stored === undefined) lines.push("session   none (run `fire-api login --key 0x...`)")
    else {
      const api = yield* clientApi(stored.clientUrl, { token: stored.token })
      const current = yield* api.sessions.getCurrentSession().pipe(
        Effect.map((s) => `${s.user.walletAddress} (user ${s.user.id}), expires ${s.expiresAt}`),
        Effect.catch((e: any) => Effect.succeed(`stored but refused: ${e?.code ?? e?._tag ?? String(e)}`))
      )
      lines.push(`session   ${current}`)
    }
    const client = yield* clientApi(targets.clientUrl)
    const exchange = yield* exchangeApi(targets.exchangeUrl)
    const health = (name: string, effect: Effect.Effect<{ status: string; database: { status: string } }, unknown>) =>
      effect.pipe(
        Effect.map((h) => `${name.padEnd(9)} ${h.status} (database ${h.database.status})`),
        Effect.catch((e: any) => Effect.succeed(`${name.padEnd(9)} unreachable: ${e?.message ?? e?.code ?? String(e)}`))
      )
    lines.push(yield* health(`client`, client.health.getHealth()))
    lines.push(yield* health(`exchange`, exchange.health.getHealth()))
    lines.push(`tools     ${clientTools().length} app_, ${exchangeTools().length} dex_ in this build`)
    yield* Effect.sync(() => console.log(lines.join("\n")))
  })

export type CliProgram = Effect.Effect<void, unknown, HttpClient.HttpClient>
