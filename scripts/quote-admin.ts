/**
 * `npm run quote-admin -- <command>`: partner keys and the token allowlist of the quote routes, straight in the
 * database (DATABASE_URL, else the embedded PostgreSQL under DATA_DIR, as npm start). Exchange processes see changes
 * to keys within QUOTE_KEYS_REFRESH_MS (5 s) and to the allowlist at once.
 *
 *   keys:create <partner> [limit] [windowSeconds]   prints the new key once (only its sha256 is stored)
 *   keys:list                                        partner, key prefix, source, limit, created, revoked
 *   keys:revoke <keyHash | keyPrefix>                revoked keys answer 401 like unknown ones
 *   allowlist:list <chainId>
 *   allowlist:add <chainId> <address>...
 *   allowlist:remove <chainId> <address>...
 *
 * Rotation: keys:create for the same partner, hand the new key over, keys:revoke the old one once it is unused.
 * Keys from QUOTE_API_KEYS are rotated by changing the variable: at start the exchange revokes configured keys that
 * are no longer listed.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { DatabaseLive } from "../layers/Sql.ts"
import { Allowlist } from "../src/exchange-api/quotes/Allowlist.ts"
import { PartnerKeys } from "../src/exchange-api/quotes/PartnerKeys.ts"

const [command, ...args] = process.argv.slice(2)
const usage =
  "usage: quote-admin keys:create <partner> [limit] [windowSeconds] | keys:list | keys:revoke <hash|prefix> | " +
  "allowlist:list <chainId> | allowlist:add <chainId> <address>... | allowlist:remove <chainId> <address>..."
const address = /^0x[0-9a-fA-F]{40}$/u

const program = Effect.gen(function* () {
  const keys = yield* PartnerKeys
  const allowlist = yield* Allowlist
  const chainArg = () => {
    const id = Number(args[0])
    if (!Number.isInteger(id) || id < 1) throw new Error(`${usage}\nchainId: a positive integer`)
    return id
  }
  const addressArgs = () => {
    const list = args.slice(1)
    const bad = list.filter((a) => !address.test(a))
    if (list.length === 0 || bad.length > 0)
      throw new Error(`${usage}\nnot addresses: ${bad.join(", ") || "(none given)"}`)
    return list
  }
  switch (command) {
    case "keys:create": {
      if (args[0] === undefined || args[0] === "") throw new Error(usage)
      const limit = args[1] === undefined ? undefined : { limit: Number(args[1]), windowSeconds: Number(args[2] ?? 60) }
      const { key, keyHash } = yield* keys.create(args[0], limit)
      console.log(
        JSON.stringify({ partner: args[0], key, keyHash, ...(limit === undefined ? {} : { rateLimit: limit }) })
      )
      return
    }
    case "keys:list":
      for (const k of yield* keys.list) {
        console.log(
          [
            k.partner,
            k.keyPrefix,
            k.source,
            k.rateLimit === null ? "default" : `${k.rateLimit}/${k.rateWindowSeconds}s`,
            k.createdAt.toISOString(),
            k.revokedAt === null ? "active" : `revoked ${k.revokedAt.toISOString()}`,
            k.keyHash
          ].join("\t")
        )
      }
      return
    case "keys:revoke": {
      if (args[0] === undefined) throw new Error(usage)
      console.log(`revoked ${yield* keys.revoke(args[0])} key(s)`)
      return
    }
    case "allowlist:list":
      for (const a of yield* allowlist.list(chainArg())) console.log(a)
      return
    case "allowlist:add":
      yield* allowlist.add(chainArg(), addressArgs())
      console.log(`added ${args.length - 1} address(es)`)
      return
    case "allowlist:remove":
      console.log(`removed ${yield* allowlist.remove(chainArg(), addressArgs())} address(es)`)
      return
    default:
      throw new Error(usage)
  }
})

program.pipe(
  Effect.provide(
    Layer.mergeAll(PartnerKeys.layerPassive, Allowlist.layerPassive).pipe(
      Layer.provideMerge(DatabaseLive),
      Layer.provide(NodeServices.layer)
    )
  ),
  NodeRuntime.runMain
)
