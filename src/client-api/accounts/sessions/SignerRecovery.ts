import { Config, Context, Effect, Layer } from "effect"
import { Piscina } from "piscina"
import type { Address } from "viem"
import type { RecoverTask } from "../../../../workers/recover-signer.ts"
import { recoverMessageSigner } from "../../../../workers/SignerRecovery.ts"

export { recoverMessageSigner }

// Dev and tests run the .ts sources (Node strips types, in workers too); the build runs the compiled .js.
const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js"

/**
 * Where a wallet sign-in recovers the signer of its message (workers/SignerRecovery.ts, libsecp256k1 in
 * WebAssembly, ~0.3 ms of CPU). With SIGNIN_RECOVERY_WORKERS ≥ 1 (default 1) it runs in that many worker threads
 * (Piscina), so the API's main thread, which runs everything else of every request, does not: under bench:auth's
 * 50 sign-ins in flight the main thread is the bottleneck (docs/BENCHMARKS.md), and the recovery was a fifth of its
 * time. 0 recovers on the main thread. A pool that fails (a worker that cannot start) is logged and the recovery
 * done here, so a sign-in never fails for it.
 */
export class SignerRecovery extends Context.Service<
  SignerRecovery,
  {
    /** The signer (lower case) of `signature` over the EIP-191 message, as `recoverMessageSigner`; undefined if none. */
    readonly recover: (message: string, signature: string) => Effect.Effect<Address | undefined>
  }
>()("app/sessions/SignerRecovery") {
  static readonly layerInline = Layer.succeed(SignerRecovery, {
    recover: (message, signature) => Effect.sync(() => recoverMessageSigner(message, signature))
  })

  static readonly layerWorkers = (threads: number) =>
    Layer.effect(
      SignerRecovery,
      Effect.gen(function* () {
        const context = yield* Effect.context<never>()
        const warn = (error: unknown) =>
          void Effect.runForkWith(context)(Effect.logWarning("sign-in: signer recovery pool error", error))
        const pool = yield* Effect.acquireRelease(
          Effect.sync(() => {
            const pool = new Piscina<RecoverTask, Address | undefined>({
              filename: new URL(`../../../../workers/recover-signer${ext}`, import.meta.url).href,
              minThreads: threads,
              maxThreads: threads,
              idleTimeout: Number.MAX_SAFE_INTEGER,
              // Tasks go to the worker as they come, and it recovers them one after the other. With one task per
              // worker the next could only be sent after the main thread had read the last answer: a busy main thread
              // (the case this pool is for) would leave the worker waiting between tasks.
              concurrentTasksPerWorker: 64
            })
            pool.on("error", warn)
            return pool
          }),
          (pool) => Effect.promise(() => pool.destroy())
        )
        return SignerRecovery.of({
          recover: (message, signature) =>
            Effect.tryPromise(() => pool.run({ message, signature })).pipe(
              Effect.catch((error) =>
                Effect.andThen(
                  Effect.logWarning("sign-in: signer recovery in a worker failed; recovering here", error),
                  Effect.sync(() => recoverMessageSigner(message, signature))
                )
              )
            )
        })
      })
    )

  /** From SIGNIN_RECOVERY_WORKERS (default 1; 0: on the main thread). */
  static readonly layer = Layer.unwrap(
    Effect.map(
      Effect.orDie(Config.Int("SIGNIN_RECOVERY_WORKERS").pipe(Config.withDefault(1))),
      (threads): Layer.Layer<SignerRecovery> =>
        threads <= 0 ? SignerRecovery.layerInline : SignerRecovery.layerWorkers(threads)
    )
  )
}
