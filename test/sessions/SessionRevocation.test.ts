import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { SessionConfig } from "../../src/client-api/accounts/sessions/SessionConfig.ts"
import { Sessions } from "../../src/client-api/accounts/sessions/Sessions.ts"
import { UsersRepo } from "../../src/client-api/accounts/users/UsersRepo.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { newAccount, TEST_JWT_SECRET } from "./support.ts"
import { sessionSettings } from "./tokens.ts"

const settings = (sessionCacheMs: number) =>
  sessionSettings({ jwtSecret: Option.some(Redacted.make(TEST_JWT_SECRET)), sessionCacheMs })

/**
 * One API process's session machinery (its own SessionCache) over the shared test database. Each `Effect.provide`
 * builds it afresh, so two calls give two processes that share nothing but PostgreSQL.
 */
const apiProcess = (sessionCacheMs: number) =>
  Sessions.useSync((sessions) => sessions).pipe(
    Effect.provide(Sessions.layer.pipe(Layer.provide(SessionConfig.layerWith(settings(sessionCacheMs)))))
  )

const newUser = UsersRepo.use((users) => users.upsertWalletUser(newAccount().address, false))

const outcome = (effect: Effect.Effect<unknown, { readonly code: string }>) =>
  effect.pipe(Effect.match({ onFailure: (e) => e.code, onSuccess: () => "ok" }))

layer(UsersRepo.layer.pipe(Layer.provideMerge(TestDatabase)), { timeout: "60 seconds" })(
  "revocation across API processes (TestClock, no sleeps)",
  (it) => {
    it.effect("a logout on process B is refused by process A once A's cache entry is SESSION_CACHE_MS old (1 s)", () =>
      Effect.gen(function* () {
        const a = yield* apiProcess(1000)
        const b = yield* apiProcess(1000)
        const issued = yield* a.issue(yield* newUser, "wallet")
        const session = yield* a.authenticate(issued.token) // A caches the live session at t = 0
        yield* b.logout(session)
        assert.strictEqual(yield* outcome(b.authenticate(issued.token)), "UNAUTHORIZED", "B knows at once")
        assert.strictEqual(yield* outcome(a.authenticate(issued.token)), "ok", "A may still answer from its cache")
        yield* TestClock.adjust("999 millis")
        assert.strictEqual(yield* outcome(a.authenticate(issued.token)), "ok")
        yield* TestClock.adjust("1 millis")
        assert.strictEqual(yield* outcome(a.authenticate(issued.token)), "UNAUTHORIZED", "within 1 s everywhere")
      })
    )

    it.effect("a ban made elsewhere reaches process A within the same bound: 403 USER_BANNED", () =>
      Effect.gen(function* () {
        const a = yield* apiProcess(1000)
        const users = yield* UsersRepo
        const admin = yield* newUser
        const user = yield* newUser
        const issued = yield* a.issue(user, "wallet")
        assert.strictEqual(yield* outcome(a.authenticate(issued.token)), "ok")
        yield* users.moderate({ adminId: admin.id, userId: user.id, actions: ["ban"], reason: "spam" })
        yield* TestClock.adjust("1 second")
        assert.strictEqual(yield* outcome(a.authenticate(issued.token)), "USER_BANNED")
      })
    )

    it.effect("with SESSION_CACHE_MS=0 every request reads the row: revocation is immediate", () =>
      Effect.gen(function* () {
        const a = yield* apiProcess(0)
        const b = yield* apiProcess(0)
        const issued = yield* a.issue(yield* newUser, "idp")
        yield* b.logout(yield* a.authenticate(issued.token))
        assert.strictEqual(yield* outcome(a.authenticate(issued.token)), "UNAUTHORIZED")
      })
    )

    it.effect("a token past its expiry is refused (the clock moves, the token does not)", () =>
      Effect.gen(function* () {
        const a = yield* apiProcess(1000)
        const issued = yield* a.issue(yield* newUser, "wallet")
        yield* TestClock.adjust("7 days")
        assert.strictEqual(yield* outcome(a.authenticate(issued.token)), "UNAUTHORIZED")
      })
    )
  }
)
