import { Cause, Effect } from "effect"

/**
 * A failed start (or run) of the app as one readable line that says what to change: the message of the error that
 * ended it, not its stack. The full cause is logged too, at Debug level (`LOG_LEVEL=Debug`).
 */
export const failureLine = (cause: Cause.Cause<unknown>): string => describe(Cause.squash(cause))

// Effect.try / tryPromise without a `catch` wrap the thrown value in an error that only names the wrapper.
const generic = /^An error occurred in Effect\.\w+$/

const messageOf = (error: unknown): string => {
  if (!(error instanceof Error) && !(typeof error === "object" && error !== null && "message" in error))
    return String(error)
  const { message, cause } = error as { message: unknown; cause?: unknown }
  if ((typeof message !== "string" || message === "" || generic.test(message)) && cause !== undefined)
    return messageOf(cause)
  return String(message)
}

const describe = (error: unknown): string => {
  if (typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ConfigError") {
    return describeConfigError(messageOf(error))
  }
  return oneLine(messageOf(error))
}

/**
 * `SchemaError(Expected a string representing a finite number\n  at ["CLIENT_PORT"])` →
 * `invalid setting CLIENT_PORT="abc": expected a string representing a finite number`.
 */
const describeConfigError = (message: string): string => {
  const inner = message.replace(/^\w+\(([\s\S]*)\)$/, "$1")
  const path = /at \[([^\]]*)\]/
    .exec(inner)?.[1]
    ?.split(",")
    .map((part) => part.trim().replace(/^"|"$/g, ""))
  const reason = inner.replace(/\s*at \[[^\]]*\]\s*$/, "").replace(/^Expected/, "expected")
  if (path === undefined || path.length === 0) return oneLine(`invalid setting: ${reason}`)
  const name = path.join("_")
  const value = process.env[name]
  return oneLine(
    `invalid setting ${name}${value === undefined ? " (missing)" : `=${JSON.stringify(value)}`}: ${reason}`
  )
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim()

/** Logs the failure as one Error line (its cause at Debug) and fails with it, for the runner's exit code. */
export const reportFailure = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchCause(self, (cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.failCause(cause)
      : Effect.logError(failureLine(cause)).pipe(
          Effect.andThen(Effect.logDebug("the failure in full:", cause)),
          Effect.andThen(Effect.failCause(cause))
        )
  )
