import { Context, Deferred, Effect, Layer } from "effect"
import { createECDH, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"
import * as NodeFs from "node:fs"
import { createServer, type Server } from "node:https"
import * as NodePath from "node:path"

/**
 * A push service on localhost for the delivery tests (HTTPS with the fixture certificate, which the app trusts
 * through PUSH_CA_FILE), and a browser-side subscription: a P-256 key pair and an auth secret generated here, as a
 * browser does, so the test can decrypt what the app sent.
 */

export const TLS_DIR = NodePath.join(import.meta.dirname, "..", "fixtures", "push-tls")
export const CA_FILE = NodePath.join(TLS_DIR, "cert.pem")

export interface ReceivedPush {
  readonly path: string
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
  /** When the request had arrived in full (Date.now()). */
  readonly at: number
}

/** How the service answers a POST to a path: a fixed status, or a list used in order (the last one repeats). */
export type Script = ReadonlyArray<number>

export class TestPushService extends Context.Service<
  TestPushService,
  {
    readonly origin: string
    /** Sets the answers for `path` and returns a function that waits for the n-th (1-based) request to it. */
    readonly route: (path: string, script: Script) => (n: number) => Effect.Effect<ReceivedPush>
    readonly received: (path: string) => ReadonlyArray<ReceivedPush>
  }
>()("test/push/TestPushService") {
  static readonly layer = Layer.effect(
    TestPushService,
    Effect.gen(function* () {
      const routes = new Map<
        string,
        { script: Script; got: Array<ReceivedPush>; waiters: Map<number, Deferred.Deferred<ReceivedPush>> }
      >()
      const server: Server = createServer(
        {
          key: NodeFs.readFileSync(NodePath.join(TLS_DIR, "key.pem")),
          cert: NodeFs.readFileSync(CA_FILE)
        },
        (request, response) => {
          const chunks: Array<Buffer> = []
          request.on("data", (c: Buffer) => chunks.push(c))
          request.on("end", () => {
            const route = routes.get(request.url ?? "")
            if (route === undefined) {
              response.writeHead(404).end()
              return
            }
            const push: ReceivedPush = {
              path: request.url!,
              headers: request.headers,
              body: Buffer.concat(chunks),
              at: Date.now()
            }
            route.got.push(push)
            const status = route.script[Math.min(route.got.length, route.script.length) - 1]!
            response.writeHead(status).end(status >= 400 ? "test push service says no" : "")
            const waiter = route.waiters.get(route.got.length)
            if (waiter !== undefined) Deferred.doneUnsafe(waiter, Effect.succeed(push))
          })
        }
      )
      yield* Effect.acquireRelease(
        Effect.callback<void>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () =>
          Effect.callback<void>((resume) => {
            server.closeAllConnections()
            server.close(() => resume(Effect.void))
          })
      )
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      return TestPushService.of({
        origin: `https://localhost:${port}`,
        route: (path, script) => {
          const route = {
            script,
            got: [] as Array<ReceivedPush>,
            waiters: new Map<number, Deferred.Deferred<ReceivedPush>>()
          }
          routes.set(path, route)
          return (n) =>
            Effect.suspend(() => {
              const seen = route.got[n - 1]
              if (seen !== undefined) return Effect.succeed(seen)
              let waiter = route.waiters.get(n)
              if (waiter === undefined) {
                waiter = Deferred.makeUnsafe<ReceivedPush>()
                route.waiters.set(n, waiter)
              }
              return Deferred.await(waiter)
            }).pipe(Effect.timeout("30 seconds"), Effect.orDie)
        },
        received: (path) => routes.get(path)?.got ?? []
      })
    })
  )
}

/** The browser side of a subscription: what `pushManager.subscribe` creates and keeps. */
export const browserSubscription = (endpoint: string) => {
  const ecdh = createECDH("prime256v1")
  const publicKey = ecdh.generateKeys()
  const auth = randomBytes(16)
  return {
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") }
    },
    /** Decrypts an aes128gcm message body (RFC 8188 framing, RFC 8291 keys) with the private key kept here. */
    decrypt: (body: Buffer): string => {
      const salt = body.subarray(0, 16)
      const recordSize = body.readUInt32BE(16)
      const idLength = body[20]!
      const senderPublic = body.subarray(21, 21 + idLength)
      const ciphertext = body.subarray(21 + idLength)
      if (ciphertext.length > recordSize) throw new Error("more than one record")
      const shared = ecdh.computeSecret(senderPublic)
      const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), publicKey, senderPublic])
      const ikm = Buffer.from(hkdfSync("sha256", shared, auth, keyInfo, 32))
      const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16))
      const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12))
      const decipher = createDecipheriv("aes-128-gcm", cek, nonce)
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()])
      // The last record ends with the delimiter 0x02 followed by zero padding.
      let end = padded.length - 1
      while (end >= 0 && padded[end] === 0) end--
      if (padded[end] !== 2) throw new Error("bad padding delimiter")
      return padded.subarray(0, end).toString("utf8")
    }
  }
}
