import { Effect } from "effect"
import { clientApi } from "../sdk/index.ts"
import { readSession } from "./SessionFile.ts"

const progress = (line: string) => Effect.sync(() => process.stderr.write(`${line}\n`))

export interface CommentOptions {
  readonly token: string
  readonly text: string
  readonly replyTo?: string | undefined
}

/**
 * `fire-api comment --token 0x… --text "…" [--reply-to <id>]`: posts on the token's thread with the stored session
 * (run `login` first). Prints the post number the thread gave it; route errors print as `CODE: message`.
 */
export const comment = (options: CommentOptions) =>
  Effect.gen(function* () {
    if (options.replyTo !== undefined && !/^[1-9][0-9]*$/.test(options.replyTo)) {
      return yield* Effect.fail(new Error("--reply-to takes a comment id (a positive integer)"))
    }
    const stored = readSession()
    if (stored === undefined) return yield* Effect.fail(new Error("no session: run `fire-api login --key 0x...` first"))
    const api = yield* clientApi(stored.clientUrl, { token: stored.token })
    yield* progress(`→ posting on ${options.token}'s thread as ${stored.address}`)
    const posted = yield* api.comments.createComment({
      payload: {
        token: options.token,
        text: options.text,
        ...(options.replyTo !== undefined ? { replyTo: Number(options.replyTo) } : {})
      }
    })
    yield* progress(`✓ comment ${posted.id} is post #${posted.postNumber} on ${options.token}`)
    yield* Effect.sync(() => console.log(JSON.stringify({ id: posted.id, postNumber: posted.postNumber })))
  })
