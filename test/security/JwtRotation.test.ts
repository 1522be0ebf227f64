import { assert, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestDatabase } from "../support/TestDatabase.ts"
import { sessionSettings, signNew, tokenProcess } from "../sessions/tokens.ts"

/**
 * JWT key rotation (docs/SECURITY.md): a process started with JWT_SECRET=new and JWT_SECRET_PREVIOUS=old signs with
 * the new key and still verifies tokens signed with the old one; a process without JWT_SECRET_PREVIOUS (the step
 * after the rotation window) refuses them; a token signed with any other key is refused throughout.
 */
const OLD = "old-jwt-secret-0123456789abcdef0123456789"
const NEW = "new-jwt-secret-fedcba9876543210fedcba9876"
const OTHER = "attacker-jwt-secret-000000000000000000000"

const processWith = (secret: string, previous?: string) =>
  tokenProcess(
    sessionSettings({
      jwtSecret: Option.some(Redacted.make(secret)),
      jwtSecretPrevious: previous === undefined ? Option.none() : Option.some(Redacted.make(previous))
    })
  )

const signWith = (secret: string) => Effect.flatMap(processWith(secret), (tokens) => signNew(tokens))

layer(TestDatabase, { timeout: "60 seconds" })("JWT key rotation (JWT_SECRET_PREVIOUS)", (it) => {
  it.effect(
    "during rotation old tokens verify and new ones are signed with the new key; afterwards old ones are refused",
    () =>
      Effect.gen(function* () {
        const oldToken = yield* signWith(OLD)
        const forged = yield* signWith(OTHER)
        const rotating = yield* processWith(NEW, OLD)
        const now = new Date()
        assert.isString((yield* rotating.verify(oldToken, now)).sessionId)
        assert.strictEqual((yield* Effect.flip(rotating.verify(forged, now))).reason, "invalid")
        const newToken = yield* signNew(rotating, now)
        // Signed with the new key: a process that knows only the new key accepts it, one with only the old refuses it.
        assert.isString((yield* (yield* processWith(NEW)).verify(newToken, now)).sessionId)
        assert.strictEqual((yield* Effect.flip((yield* processWith(OLD)).verify(newToken, now))).reason, "invalid")
        const after = yield* processWith(NEW)
        assert.strictEqual((yield* Effect.flip(after.verify(oldToken, now))).reason, "invalid")
      })
  )
})
