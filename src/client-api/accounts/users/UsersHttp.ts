import { Effect, Option, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser, OptionalSession } from "../auth/Authentication.ts"
import { Badges } from "../../social/badges/Badges.ts"
import { ClientApi } from "../../ClientApi.ts"
import { CommentView } from "../../comments/Comment.ts"
import { UserYaps } from "../../comments/UserYaps.ts"
import { FuelLedger } from "../../social/fuel/FuelLedger.ts"
import { cachedIfAnonymous, ClientCache } from "../../ClientCache.ts"
import { PublicProfile, toModeratedUser, toOwnProfile, toPublicProfile } from "./User.ts"
import { Users } from "./Users.ts"
import { UsernameAvailability } from "./UsersApi.ts"
import { UserStats, WidgetPage } from "./UserWidgets.ts"

/** Widget items are plain JSON records. */
const encodeComment = Schema.encodeSync(CommentView) as (c: CommentView) => Record<string, unknown>

/** The viewer of an optional-JWT route, as a user. */
const viewer = Effect.map(
  OptionalSession,
  Option.map((session) => session.user)
)

export const UsersHttp = HttpApiBuilder.group(
  ClientApi,
  "users",
  Effect.fn(function* (handlers) {
    const users = yield* Users
    const cachedProfile = cachedIfAnonymous(yield* ClientCache, PublicProfile)
    const fuel = yield* FuelLedger
    const badges = yield* Badges
    const yaps = yield* UserYaps

    // Writes start from the current row; reads use the session's user, at most SESSION_CACHE_MS old (this process
    // drops it at once when it changes the user, so only another process's edit can lag, by ≤ 1 s).
    const me = Effect.flatMap(CurrentUser, (user) => users.get(user.id))

    const page = ({ query }: { readonly query: { readonly address?: string | undefined } }) =>
      Effect.flatMap(viewer, (v) => users.widgetSubject(query.address, v)).pipe(
        Effect.map(({ walletAddress }) => new WidgetPage({ walletAddress, items: [], nextCursor: null }))
      )

    return handlers
      .handle("getMe", () => Effect.map(CurrentUser, toOwnProfile))
      .handle("getProfileByAddress", ({ params }) =>
        // A public route: no session is read, so a hidden profile is hidden from everyone here (owners use /me).
        cachedProfile(Effect.map(users.publicProfile(params.wallet, Option.none()), toPublicProfile))
      )
      .handle("checkUsername", ({ query }) =>
        Effect.map(users.usernameAvailability(query.username), (a) => new UsernameAvailability(a))
      )
      .handle("updateProfile", ({ payload }) =>
        Effect.flatMap(me, (user) => users.updateProfile(user, payload)).pipe(Effect.map(toOwnProfile))
      )
      .handle("uploadProfileImage", ({ payload }) =>
        Effect.flatMap(me, (user) => users.setImage(user, payload.file.path)).pipe(Effect.map(toOwnProfile))
      )
      .handle("getStats", ({ query }) =>
        Effect.flatMap(viewer, (v) => users.widgetSubject(query.address, v)).pipe(
          Effect.bindTo("subject"),
          Effect.bind("fuels", ({ subject }) => fuel.counts(subject.walletAddress)),
          Effect.bind("badges", ({ subject }) => badges.earnedBy(subject.walletAddress)),
          Effect.bind("yaps", ({ subject }) =>
            Option.match(subject.user, { onNone: () => Effect.succeed(0), onSome: (u) => yaps.count(u.id) })
          ),
          Effect.map(
            ({ badges, fuels, subject: { user, walletAddress }, yaps }) =>
              new UserStats({
                walletAddress,
                userId: Option.match(user, { onNone: () => null, onSome: (u) => u.id }),
                joinedAt: Option.match(user, { onNone: () => null, onSome: (u) => u.createdAt.toISOString() }),
                yaps,
                fuelsGiven: fuels.given,
                fuelsReceived: fuels.received,
                trades: 0,
                launches: 0,
                badges
              })
          )
        )
      )
      .handle("getActivity", page)
      .handle("getYaps", ({ query }) =>
        // The comments the profile's user wrote (none for a wallet that never signed in), newest first.
        Effect.flatMap(viewer, (v) =>
          Effect.flatMap(users.widgetSubject(query.address, v), ({ user, walletAddress }) =>
            Option.match(user, {
              onNone: () => Effect.succeed(new WidgetPage({ walletAddress, items: [], nextCursor: null })),
              onSome: (u) =>
                Effect.map(
                  yaps.page(u.id, {
                    cursor: query.cursor,
                    limit: query.limit ?? 20,
                    viewer: Option.getOrNull(Option.map(v, (x) => x.id))
                  }),
                  (p) => new WidgetPage({ walletAddress, items: p.items.map(encodeComment), nextCursor: p.nextCursor })
                )
            })
          )
        )
      )
      .handle("getFuels", ({ query }) =>
        // The same indexed FuelVault events as /v1/fuel/*: tips the wallet gave or received, newest first.
        Effect.flatMap(viewer, (v) => users.widgetSubject(query.address, v)).pipe(
          Effect.flatMap(({ walletAddress }) => fuel.page({ wallet: walletAddress, side: "both", ...query })),
          Effect.map(
            (p) =>
              new WidgetPage({
                walletAddress: p.walletAddress ?? "",
                items: p.items.map((t) => ({ direction: t.from === p.walletAddress ? "given" : "received", ...t })),
                nextCursor: p.nextCursor
              })
          )
        )
      )
      .handle("getTrades", page)
      .handle("moderateUser", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (admin) => users.moderate(admin, params.userId, payload)).pipe(
          Effect.map(toModeratedUser)
        )
      )
  })
)
