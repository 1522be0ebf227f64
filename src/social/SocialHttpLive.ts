import { Layer } from "effect"
import { AccountServicesLive, FuelLedgerLive } from "../auth/AccountsLive.ts"
import { FuelHttp } from "../fuel/FuelHttp.ts"
import { Gifts } from "../gifts/Gifts.ts"
import { GiftsConfig } from "../gifts/GiftsConfig.ts"
import { GiftsHttp } from "../gifts/GiftsHttp.ts"
import { GiftsRepo } from "../gifts/GiftsRepo.ts"

/** The services behind the social routes (fuel, gifts, ...), over the process's database, chain and config. */
export const SocialServicesLive = Layer.mergeAll(FuelLedgerLive, Gifts.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(GiftsRepo.layer, GiftsConfig.layer))
)

/** The client API's social routes (issue 8: fuel, gifts, feeds, content, competition, badges, shares, x-auth). */
export const SocialHttpLive = Layer.mergeAll(FuelHttp, GiftsHttp).pipe(
  Layer.provideMerge(SocialServicesLive),
  // The auth middlewares; the same layer value as the account routes', so one instance is built (layers memoize).
  Layer.provide(AccountServicesLive)
)
