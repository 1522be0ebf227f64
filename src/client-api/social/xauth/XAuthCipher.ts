import { Config, ConfigProvider, Context, Effect, Layer, Option, Redacted } from "effect"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { AppConfig } from "../../../platform/AppConfig.ts"

/**
 * AES-256-GCM for OAuth tokens at rest. Each value is `iv (12 bytes) ‖ tag (16) ‖ ciphertext`, with a fresh random IV
 * per encryption and caller-given additional authenticated data (user id + provider), so a value moved to another row
 * fails to decrypt. The key is `X_AUTH_ENCRYPTION_KEY` (32 bytes, base64 or hex) or, when absent, a random key
 * generated on first start into `$DATA_DIR/secrets/x-auth.key` (mode 0600). It is never written to the database,
 * so a database dump alone reveals no token. Several API hosts must share the key through the environment.
 */
export class XAuthCipher extends Context.Service<
  XAuthCipher,
  {
    /** First 8 hex digits of sha256(key): stored beside each value to detect a changed key. */
    readonly keyId: string
    readonly encrypt: (plaintext: string, aad: string) => Buffer
    readonly decrypt: (sealed: Buffer, aad: string) => Option.Option<string>
  }
>()("app/xauth/XAuthCipher") {
  static readonly make = (key: Buffer) => {
    if (key.length !== 32) throw new Error("AES-256-GCM needs a 32-byte key")
    return XAuthCipher.of({
      keyId: createHash("sha256").update(key).digest("hex").slice(0, 8),
      encrypt: (plaintext, aad) => {
        const iv = randomBytes(12)
        const cipher = createCipheriv("aes-256-gcm", key, iv)
        cipher.setAAD(Buffer.from(aad))
        const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
        return Buffer.concat([iv, cipher.getAuthTag(), body])
      },
      decrypt: (sealed, aad) => {
        try {
          const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12))
          decipher.setAAD(Buffer.from(aad))
          decipher.setAuthTag(sealed.subarray(12, 28))
          return Option.some(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString("utf8"))
        } catch {
          return Option.none()
        }
      }
    })
  }

  static readonly layer = Layer.effect(
    XAuthCipher,
    Effect.gen(function* () {
      const fromEnv = yield* keyConfig
      if (Option.isSome(fromEnv)) return XAuthCipher.make(fromEnv.value)
      const { dataDir } = yield* AppConfig
      return XAuthCipher.make(yield* Effect.sync(() => persistedKey(NodePath.join(dataDir, "secrets", "x-auth.key"))))
    })
  )
}

const keyConfig = Config.option(Config.Redacted("X_AUTH_ENCRYPTION_KEY")).pipe(
  Config.flatMap((secret) => {
    if (Option.isNone(secret)) return Config.succeed(Option.none<Buffer>())
    const text = Redacted.value(secret.value).trim()
    const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64")
    return key.length === 32
      ? Config.succeed(Option.some(key))
      : Config.fail(
          new ConfigProvider.SourceError({ message: "X_AUTH_ENCRYPTION_KEY: 32 bytes as 64 hex digits or base64" })
        )
  })
)

/**
 * Reads the key file, creating it first if absent: written to a temporary file, then hard-linked into place (atomic,
 * fails if the name exists), so two processes starting at once agree on one key and never read a half-written file.
 */
const persistedKey = (file: string): Buffer => {
  NodeFs.mkdirSync(NodePath.dirname(file), { recursive: true, mode: 0o700 })
  if (!NodeFs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
    NodeFs.writeFileSync(tmp, randomBytes(32).toString("base64"), { mode: 0o600 })
    try {
      NodeFs.linkSync(tmp, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    } finally {
      NodeFs.rmSync(tmp, { force: true })
    }
  }
  const key = Buffer.from(NodeFs.readFileSync(file, "utf8").trim(), "base64")
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`)
  return key
}
