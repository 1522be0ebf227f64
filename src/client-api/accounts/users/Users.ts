import { Context, Effect, Layer, Option } from "effect"
import { getAddress } from "viem"
import { BadRequest, Conflict, NotFound } from "../../../platform/ApiError.ts"
import { ImageStore, imageUrlPath } from "../images/ImageStore.ts"
import { SessionCache } from "../sessions/SessionCache.ts"
import { RESERVED_USERNAMES, type User } from "./User.ts"
import type { ModerationAction, ProfilePatch } from "./UsersRepo.ts"
import { UsersRepo } from "./UsersRepo.ts"

const userNotFound = () => new NotFound({ code: "USER_NOT_FOUND", message: "No such user" })

export interface Moderation {
  readonly banned?: boolean
  readonly admin?: boolean
  readonly hidden?: boolean
  readonly reason?: string
}

/** The user a profile widget is about, and whether the viewer may see it. */
export interface WidgetSubject {
  readonly walletAddress: string
  readonly user: Option.Option<User>
}

/** Profile rules: usernames, edits, avatars, visibility, moderation. */
export class Users extends Context.Service<
  Users,
  {
    readonly get: (id: string) => Effect.Effect<User, NotFound>
    /**
     * The stored profile of an id, hidden or not: for other groups' pages (a token's creator), which apply the
     * visibility rule themselves.
     */
    readonly findById: (id: string) => Effect.Effect<Option.Option<User>>
    /** The stored profiles of many (checksummed) wallets, keyed by wallet address, hidden ones included (as above). */
    readonly findByWallets: (addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, User>>
    readonly publicProfile: (wallet: string, viewer: Option.Option<User>) => Effect.Effect<User, NotFound>
    readonly usernameAvailability: (username: string) => Effect.Effect<{
      readonly username: string
      readonly available: boolean
      readonly reason: "TAKEN" | "RESERVED" | null
    }>
    readonly updateProfile: (user: User, patch: ProfilePatch) => Effect.Effect<User, BadRequest | Conflict | NotFound>
    /** Stores the uploaded file as the user's avatar. */
    readonly setImage: (user: User, uploadPath: string) => Effect.Effect<User, BadRequest | NotFound>
    readonly widgetSubject: (
      address: string | undefined,
      viewer: Option.Option<User>
    ) => Effect.Effect<WidgetSubject, BadRequest | NotFound>
    readonly moderate: (
      admin: User,
      userId: string,
      moderation: Moderation
    ) => Effect.Effect<User, BadRequest | NotFound>
  }
>()("app/users/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function* () {
      const repo = yield* UsersRepo
      const images = yield* ImageStore
      const cache = yield* SessionCache
      const found = (user: Option.Option<User>) =>
        Option.match(user, { onNone: () => Effect.fail(userNotFound()), onSome: Effect.succeed })
      /** Hidden profiles are visible to their owner and to admins only. */
      const visibleTo = (user: User, viewer: Option.Option<User>) =>
        user.hiddenAt === null || Option.exists(viewer, (v) => v.id === user.id || v.isAdmin)

      const updateProfile = Effect.fn("Users.updateProfile")(function* (user: User, patch: ProfilePatch) {
        const username = patch.username?.toLowerCase() ?? patch.username
        if (username != null && RESERVED_USERNAMES.has(username)) {
          return yield* new BadRequest({ code: "USERNAME_RESERVED", message: `"${username}" is reserved` })
        }
        if (patch.image != null && !(yield* images.exists(patch.image.slice("/v1/images/".length)))) {
          return yield* new BadRequest({ code: "IMAGE_NOT_FOUND", message: "Upload the image first: no such image" })
        }
        const updated = yield* repo
          .updateProfile(user.id, {
            ...patch,
            ...(patch.name == null ? {} : { name: patch.name.trim() }),
            ...(username === undefined ? {} : { username })
          })
          .pipe(
            Effect.catchTag("UsernameConflict", () =>
              Effect.fail(new Conflict({ code: "USERNAME_TAKEN", message: `"${username}" is taken` }))
            )
          )
        yield* cache.invalidateUser(user.id)
        return yield* found(updated)
      })

      const moderate = Effect.fn("Users.moderate")(function* (admin: User, userId: string, m: Moderation) {
        if (userId === admin.id && (m.banned === true || m.admin === false || m.hidden === true)) {
          return yield* new BadRequest({
            code: "CANNOT_MODERATE_SELF",
            message: "Administrators cannot ban, hide or demote themselves"
          })
        }
        const target = yield* found(yield* repo.findById(userId))
        // Only real changes are actions (and audit rows): re-banning a banned user records nothing.
        const actions: Array<ModerationAction> = []
        if (m.banned !== undefined && m.banned !== (target.bannedAt !== null)) actions.push(m.banned ? "ban" : "unban")
        if (m.admin !== undefined && m.admin !== target.isAdmin) actions.push(m.admin ? "grant_admin" : "revoke_admin")
        if (m.hidden !== undefined && m.hidden !== (target.hiddenAt !== null))
          actions.push(m.hidden ? "hide" : "unhide")
        const updated = yield* found(
          yield* repo.moderate({ adminId: admin.id, userId, actions, reason: m.reason ?? null })
        )
        yield* cache.invalidateUser(userId)
        return updated
      })

      return Users.of({
        get: (id) => Effect.flatMap(repo.findById(id), found),
        findById: repo.findById,
        findByWallets: repo.findByWallets,
        publicProfile: (wallet, viewer) =>
          Effect.flatMap(repo.findByWallet(getAddress(wallet)), (user) =>
            Option.isSome(user) && visibleTo(user.value, viewer)
              ? Effect.succeed(user.value)
              : Effect.fail(userNotFound())
          ),
        usernameAvailability: (raw) =>
          Effect.gen(function* () {
            const username = raw.toLowerCase()
            if (RESERVED_USERNAMES.has(username)) return { username, available: false, reason: "RESERVED" as const }
            const taken = yield* repo.usernameExists(username)
            return { username, available: !taken, reason: taken ? ("TAKEN" as const) : null }
          }),
        updateProfile,
        setImage: (user, uploadPath) =>
          Effect.flatMap(images.store(uploadPath), (file) =>
            repo.updateProfile(user.id, { image: imageUrlPath(file) }).pipe(
              Effect.orDie,
              Effect.tap(() => cache.invalidateUser(user.id)),
              Effect.flatMap(found)
            )
          ),
        widgetSubject: (address, viewer) =>
          Effect.gen(function* () {
            if (address === undefined && Option.isNone(viewer)) {
              return yield* new BadRequest({ code: "ADDRESS_REQUIRED", message: "Pass ?address= or sign in" })
            }
            const user = address === undefined ? viewer : yield* repo.findByWallet(getAddress(address))
            if (Option.isSome(user) && !visibleTo(user.value, viewer)) return yield* userNotFound()
            const walletAddress =
              address === undefined
                ? Option.flatMapNullishOr(user, (u) => u.walletAddress)
                : Option.some(getAddress(address))
            if (Option.isNone(walletAddress)) {
              return yield* new BadRequest({
                code: "ADDRESS_REQUIRED",
                message: "This account has no wallet; pass ?address="
              })
            }
            return { walletAddress: walletAddress.value, user }
          }),
        moderate
      })
    })
  )
}
