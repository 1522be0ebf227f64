import { assert, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { SessionConfig } from "../../src/client-api/accounts/sessions/SessionConfig.ts"
import { Sessions } from "../../src/client-api/accounts/sessions/Sessions.ts"
import { UsersRepo } from "../../src/client-api/accounts/users/UsersRepo.ts"
import { TestDatabase } from "../support/TestDatabase.ts"
import { newAccount, TEST_JWT_SECRET } from "./support.ts"
import { sessionSettings } from "./tokens.ts"

/** JWT_TTL 7 days, SESSION_MAX_LIFETIME 30 days (the defaults), written out. */
const sessions = Sessions.useSync((s) => s).pipe(
  Effect.provide(
    Sessions.layer.pipe(
      Layer.provide(
        SessionConfig.layerWith(
          sessionSettings({
            jwtSecret: Option.some(Redacted.make(TEST_JWT_SECRET)),
            jwtTtl: Duration.days(7),
            sessionMaxLifetime: Duration.days(30),
            sessionCacheMs: 0
          })
        )
      )
    )
  )
)

const newUser = UsersRepo.use((users) => users.upsertWalletUser(newAccount().address, false))

const DAY = 86_400_000

layer(UsersRepo.layer.pipe(Layer.provideMerge(TestDatabase)), { timeout: "60 seconds" })(
  "absolute session lifetime (issue 23 M4; TestClock)",
  (it) => {
    it.effect("refreshing every 6 days never takes a session past 30 days after its sign-in", () =>
      Effect.gen(function* () {
        const s = yield* sessions
        const first = yield* s.issue(yield* newUser, "wallet")
        const signedInAt = first.expiresAt.getTime() - 7 * DAY
        let token = first.token
        let last = first.expiresAt
        for (let i = 0; i < 4; i++) {
          yield* TestClock.adjust("6 days")
          const next = yield* s.refresh(yield* s.authenticate(token))
          token = next.token
          last = next.expiresAt
        }
        // Day 24: the refreshed session is cut at day 30, not day 31.
        assert.isAtMost(last.getTime(), signedInAt + 30 * DAY + 1000)
        yield* TestClock.adjust("6 days")
        const refused = yield* s.authenticate(token).pipe(Effect.flip)
        assert.strictEqual(refused.code, "UNAUTHORIZED")
      })
    )

    it.effect("a refresh an hour before the end gives a session that ends with the lifetime, not a JWT_TTL later", () =>
      Effect.gen(function* () {
        const s = yield* sessions
        const first = yield* s.issue(yield* newUser, "wallet")
        const signedInAt = first.expiresAt.getTime() - 7 * DAY
        let token = first.token
        for (let i = 0; i < 4; i++) {
          yield* TestClock.adjust("6 days")
          token = (yield* s.refresh(yield* s.authenticate(token))).token
        }
        yield* TestClock.adjust("143 hours") // day 29, 23:00
        const last = yield* s.refresh(yield* s.authenticate(token))
        assert.strictEqual(last.expiresAt.getTime(), Math.floor((signedInAt + 30 * DAY) / 1000) * 1000)
        yield* TestClock.adjust("1 hour")
        assert.strictEqual((yield* s.authenticate(last.token).pipe(Effect.flip)).code, "UNAUTHORIZED")
      })
    )
  }
)
