import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress, isAddressEqual } from "viem"
import {
  BadRequest,
  Conflict,
  type Forbidden,
  type Gone,
  NotFound,
  type ServiceUnavailable
} from "../../../platform/ApiError.ts"
import { ImageStore, imageUrlPath } from "../../accounts/images/ImageStore.ts"
import { LaunchpadReader } from "../LaunchpadReader.ts"
import { alreadyClaimed, dbAddress, notCreator, tokenDeleted, tokenNotFound } from "../Listing.ts"
import { ListingsRepo } from "../ListingsRepo.ts"
import { Notifications } from "../../notifications/Notifications.ts"
import type { User } from "../../accounts/users/User.ts"
import type { CreateLaunch, Launch, LaunchStatus } from "./Launch.ts"
import { LaunchesRepo } from "./LaunchesRepo.ts"

export const launchNotFound = (id: string) =>
  new NotFound({ code: "LAUNCH_NOT_FOUND", message: `No launch ${id} of yours`, details: { launchId: id } })

/** 409 for an illegal transition; the code names the state the launch is in (LAUNCH_DRAFT, LAUNCH_COMPLETED…). */
export const illegalTransition = (launch: Launch, action: string, allowedFrom: ReadonlyArray<LaunchStatus>) =>
  new Conflict({
    code: `LAUNCH_${launch.status}`,
    message: `Cannot ${action} a launch that is ${launch.status}; allowed from ${allowedFrom.join(" or ")}`,
    details: { launchId: launch.id, status: launch.status, action, allowedFrom }
  })

export type SubmitError = NotFound | Conflict | Forbidden | Gone | BadRequest | ServiceUnavailable

/**
 * The launch flow, exactly the spec's state table (see sql/0021_create_launch_flows.sql for the diagram). Launches
 * are private: another user's launch is 404, like a missing one.
 */
export class Launches extends Context.Service<
  Launches,
  {
    readonly create: (user: User, input: CreateLaunch) => Effect.Effect<Launch, BadRequest>
    readonly pending: (user: User) => Effect.Effect<ReadonlyArray<Launch>>
    readonly get: (user: User, id: string) => Effect.Effect<Launch, NotFound>
    readonly setImage: (
      user: User,
      id: string,
      uploadPath: string
    ) => Effect.Effect<Launch, NotFound | Conflict | BadRequest>
    readonly submit: (user: User, id: string, tokenAddress: string) => Effect.Effect<Launch, SubmitError>
    readonly fail: (user: User, id: string) => Effect.Effect<Launch, NotFound | Conflict>
    readonly remove: (user: User, id: string) => Effect.Effect<void, NotFound | Conflict>
  }
>()("app/launches/Launches") {
  static readonly layer = Layer.effect(
    Launches,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* LaunchesRepo
      const reader = yield* LaunchpadReader
      const listings = yield* ListingsRepo
      const images = yield* ImageStore
      const notifications = yield* Notifications

      const get = (user: User, id: string) =>
        Effect.flatMap(
          repo.find(id, user.id),
          Option.match({ onNone: () => Effect.fail(launchNotFound(id)), onSome: Effect.succeed })
        )

      /** After a conditional transition matched no row: not found, or the state it is in now. */
      const refused = (user: User, id: string, action: string, allowedFrom: ReadonlyArray<LaunchStatus>) =>
        Effect.flatMap(
          get(user, id),
          (launch): Effect.Effect<never, NotFound | Conflict> =>
            Effect.fail(illegalTransition(launch, action, allowedFrom))
        )

      const moved =
        (user: User, id: string, action: string, allowedFrom: ReadonlyArray<LaunchStatus>) =>
        (result: Effect.Effect<Option.Option<Launch>>): Effect.Effect<Launch, NotFound | Conflict> =>
          Effect.flatMap(result, (launch) =>
            Option.isSome(launch) ? Effect.succeed(launch.value) : refused(user, id, action, allowedFrom)
          )

      const create = Effect.fn("Launches.create")(function* (user: User, input: CreateLaunch) {
        if (input.chainId !== reader.chainId) {
          return yield* new BadRequest({
            code: "CHAIN_NOT_SUPPORTED",
            message: `Chain ${input.chainId} is not configured here; launches go to chain ${reader.chainId}`,
            details: { chainId: input.chainId, supported: [reader.chainId] }
          })
        }
        return yield* repo
          .insert({
            userId: user.id,
            chainId: input.chainId,
            name: input.name,
            symbol: input.symbol,
            description: input.description ?? null,
            category: input.category
          })
          .pipe(
            Effect.catchTag("InFlightConflict", () =>
              Effect.flatMap(repo.findInFlight(user.id, input.chainId, input.symbol), (existing) =>
                Effect.fail(
                  new BadRequest({
                    code: "DUPLICATE_LAUNCH",
                    message:
                      `You already have a launch of ${input.symbol} on chain ${input.chainId} in progress; ` +
                      "finish, fail or delete it first",
                    details: {
                      chainId: input.chainId,
                      symbol: input.symbol,
                      ...Option.match(existing, { onNone: () => ({}), onSome: (l) => ({ launchId: l.id }) })
                    }
                  })
                )
              )
            )
          )
      })

      const setImage = Effect.fn("Launches.setImage")(function* (user: User, id: string, uploadPath: string) {
        const launch = yield* get(user, id)
        if (launch.status !== "DRAFT") return yield* illegalTransition(launch, "upload the image of", ["DRAFT"])
        const file = yield* images.store(uploadPath)
        return yield* moved(user, id, "upload the image of", ["DRAFT"])(repo.setImage(id, user.id, imageUrlPath(file)))
      })

      const submit = Effect.fn("Launches.submit")(function* (user: User, id: string, tokenAddress: string) {
        const token = getAddress(tokenAddress)
        const launch = yield* get(user, id)
        // Idempotent: submitting the token a launch completed with answers the launch again.
        if (launch.status === "COMPLETED" && launch.tokenAddress === dbAddress(token)) return launch
        if (launch.status !== "IMAGE_UPLOADED") return yield* illegalTransition(launch, "submit", ["IMAGE_UPLOADED"])

        const onChain = yield* reader.launchOf(token)
        if (Option.isNone(onChain) || !onChain.value.canonical) return yield* tokenNotFound(token)
        const wallet = user.walletAddress
        if (wallet === null || !isAddressEqual(getAddress(wallet), onChain.value.creator)) {
          return yield* notCreator(
            `The on-chain creator of ${token} is ${onChain.value.creator}, not your wallet (${wallet ?? "none"})`,
            { creator: onChain.value.creator, wallet }
          )
        }
        const chainId = reader.chainId
        if (yield* listings.isHidden(chainId, dbAddress(token))) return yield* tokenDeleted(token)
        if (Option.isSome(yield* listings.metadata(chainId, dbAddress(token)))) return yield* alreadyClaimed(token)

        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              // The conditional UPDATE takes the launch's row lock: a concurrent submit of the same launch waits here and
              // then finds it COMPLETED (answered below, idempotently or with LAUNCH_COMPLETED).
              const completed = yield* repo
                .complete(id, user.id, dbAddress(token))
                .pipe(Effect.catchTag("TokenTaken", () => Effect.fail(alreadyClaimed(token))))
              if (Option.isNone(completed)) {
                const now = yield* get(user, id)
                if (now.status === "COMPLETED" && now.tokenAddress === dbAddress(token)) return now
                return yield* illegalTransition(now, "submit", ["IMAGE_UPLOADED"])
              }
              const result = yield* listings.insertMetadata({
                chainId,
                tokenAddress: dbAddress(token),
                creatorId: user.id,
                creatorWallet: onChain.value.creator,
                name: onChain.value.name,
                symbol: onChain.value.symbol,
                description: launch.description,
                category: launch.category,
                image: launch.image,
                source: "launch",
                launchId: launch.id
              })
              if (result._tag === "Hidden") return yield* tokenDeleted(token)
              if (result._tag === "Taken") return yield* alreadyClaimed(token)
              // In this transaction: the notification exists exactly when the launch is COMPLETED.
              yield* notifications.notify(
                user.id,
                "LAUNCH_COMPLETED",
                {
                  launchId: launch.id,
                  token: dbAddress(token),
                  chainId,
                  name: onChain.value.name,
                  symbol: onChain.value.symbol
                },
                { dedupeKey: `launch:${launch.id}` }
              )
              return completed.value
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
      })

      return Launches.of({
        create,
        pending: (user) => repo.pending(user.id),
        get,
        setImage,
        submit,
        // Idempotent like submit: failing a FAILED launch answers it as it is (a client retrying after a lost
        // response must not see an error); COMPLETED cannot fail.
        fail: (user, id) =>
          Effect.flatMap(repo.fail(id, user.id), (failed) =>
            Option.isSome(failed)
              ? Effect.succeed(failed.value)
              : Effect.flatMap(get(user, id), (launch) =>
                  launch.status === "FAILED"
                    ? Effect.succeed(launch)
                    : Effect.fail(illegalTransition(launch, "fail", ["DRAFT", "IMAGE_UPLOADED"]))
                )
          ),
        remove: (user, id) =>
          Effect.flatMap(repo.deleteDraft(id, user.id), (deleted) =>
            deleted ? Effect.void : refused(user, id, "delete", ["DRAFT"])
          )
      })
    })
  )
}
