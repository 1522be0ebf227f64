import { Layer } from "effect"
import { Badges } from "../social/badges/Badges.ts"
import { FuelLedger } from "../social/fuel/FuelLedger.ts"
import { FuelRepo } from "../social/fuel/FuelRepo.ts"
import { CommentsRepo } from "../comments/CommentsRepo.ts"
import { UserYaps } from "../comments/UserYaps.ts"
import { ImageCollectorLive } from "./images/ImageCollector.ts"
import { ImagesHttp } from "./images/ImagesHttp.ts"
import { ImageStore } from "./images/ImageStore.ts"
import { ImageUploadLimitsLive } from "./images/ImageUploadLimitsLive.ts"
import { IdpSignIn } from "./sessions/IdpSignIn.ts"
import { SessionConfig } from "./sessions/SessionConfig.ts"
import { Sessions } from "./sessions/Sessions.ts"
import { SessionsHttp } from "./sessions/SessionsHttp.ts"
import { WalletSignIn } from "./sessions/WalletSignIn.ts"
import { Users } from "./users/Users.ts"
import { UsersHttp } from "./users/UsersHttp.ts"
import { UsersRepo } from "./users/UsersRepo.ts"
import { AuthLive } from "./auth/AuthenticationLive.ts"

/** The services behind accounts: sessions and sign-in, users, images, and the auth middlewares built on them. */
export const AccountServicesLive = Layer.mergeAll(
  WalletSignIn.layer,
  IdpSignIn.layer,
  Users.layer,
  AuthLive,
  ImageUploadLimitsLive
).pipe(
  Layer.provideMerge(Layer.mergeAll(Sessions.layer, UsersRepo.layer, ImageStore.layer)),
  Layer.provideMerge(SessionConfig.layer)
)

/** The fuel ledger over its repo (also used by the social routes: the same layer value, built once). */
export const FuelLedgerLive = FuelLedger.layer.pipe(Layer.provideMerge(FuelRepo.layer))

/**
 * The client API's account routes (sessions, users, images) and the collector of unreferenced images, with everything they need except the process's
 * infrastructure (database, AppConfig, file system) and the signature verifier, which defaults to EOA-only
 * verification until the composition root provides a chain-backed one (see SignatureVerifier).
 */
export const AccountsHttpLive = Layer.mergeAll(SessionsHttp, UsersHttp, ImagesHttp, ImageCollectorLive).pipe(
  Layer.provideMerge(AccountServicesLive),
  // The profile's fuel widget, counters and badges read the fuel ledger (indexed FuelVault events) and badges; its
  // yaps widget and counter read the comments.
  Layer.provide(Layer.mergeAll(FuelLedgerLive, Badges.layer, UserYaps.layer.pipe(Layer.provide(CommentsRepo.layer))))
)
