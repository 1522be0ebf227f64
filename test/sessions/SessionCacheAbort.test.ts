import { assert, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { type ClientRequest, request as httpRequest } from "node:http"
import { baseUrl } from "../support/TestServer.ts"
import { AccountsServer, newAccount, tokenFor } from "./support.ts"

/**
 * A client that goes away while its request reads the session row, over real HTTP and PostgreSQL, with the session
 * cache on (SESSION_CACHE_MS 1000, the default). bench:auth on 5ed697d: after the first 10-s round of
 * `GET /v1/users/me` with the cache on, the next rounds answered nothing. Closing a connection interrupts its request's
 * fiber; when that request was the one reading the row for the session's other requests (SessionCache), the
 * interruption took effect as the read returned, before the others were answered and the read unregistered, so every
 * later request of that session waited for it forever. autocannon closes its 50 connections at the end of each round.
 *
 * The read is held on a lock instead of timed: a transaction holds the sessions table (ACCESS EXCLUSIVE), the request
 * waits on it (seen in pg_stat_activity), its client closes the connection, and the lock is released.
 */

/** A GET whose client can close the connection before the answer; `answer` settles with the status or the close. */
const openGet = (url: string, token: string) => {
  let req: ClientRequest | undefined
  const answer = new Promise<number | "closed">((resolve) => {
    req = httpRequest(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode!))
    })
    req.on("error", () => resolve("closed"))
    req.end()
  })
  return { answer, close: () => req!.destroy() }
}

/** The status of a GET, or "no answer within 5 s" (the bound of a request stuck behind a read nobody completes). */
const getStatus = (url: string, token?: string) =>
  Effect.promise(() =>
    fetch(url, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000)
    }).then(
      async (res) => {
        await res.arrayBuffer()
        return res.status
      },
      () => "no answer within 5 s"
    )
  )

// The live clock (excludeTestServices): the server answers in real time and the polling below waits in it.
layer(AccountsServer(), { timeout: "90 seconds", excludeTestServices: true })(
  "the session cache when a client goes away during its session read (real HTTP and PostgreSQL)",
  (it) => {
    it.effect("the session's waiting and later requests are answered: 200, not a hang", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const me = `${yield* baseUrl("client")}/v1/users/me`
        const token = yield* tokenFor(newAccount()) // a new session: not in the cache yet

        const locked = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* Effect.forkChild(
          sql.withTransaction(
            sql`LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE`.pipe(
              Effect.andThen(Deferred.succeed(locked, undefined)),
              Effect.andThen(Deferred.await(release))
            )
          )
        )
        yield* Deferred.await(locked)

        // The first request misses and reads the row: it waits on the lock.
        const first = openGet(me, token)
        yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
            AND query LIKE '%FROM sessions s%'`.pipe(
          Effect.repeat({ until: ([row]) => row!.n > 0, schedule: Schedule.spaced("10 millis") }),
          Effect.timeout("10 seconds")
        )
        // A second request of the session waits for that read (it does not read the row itself).
        const waiting = yield* Effect.forkChild(getStatus(me, token))
        // The first client goes away. The round trip of another request after the close (a 404, no database) lets the
        // server see the close first, so the first request's fiber is interrupted while its read still waits.
        first.close()
        assert.strictEqual(yield* Effect.promise(() => first.answer), "closed")
        assert.strictEqual(yield* getStatus(`${yield* baseUrl("client")}/v1/no-such-route`), 404)

        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        assert.strictEqual(yield* Fiber.join(waiting), 200, "the request that waited for the read")
        assert.strictEqual(yield* getStatus(me, token), 200, "a later request of the same session")
      })
    )
  }
)
