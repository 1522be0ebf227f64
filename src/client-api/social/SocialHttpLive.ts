import { Layer } from "effect"
import { AccountServicesLive, FuelLedgerLive } from "../accounts/AccountsLive.ts"
import { Badges } from "./badges/Badges.ts"
import { BadgesHttp } from "./badges/BadgesHttp.ts"
import { CompetitionHttp } from "./competition/CompetitionHttp.ts"
import { Leaderboards } from "./competition/Leaderboards.ts"
import { SocialRefreshLive } from "./competition/SocialRefresh.ts"
import { SocialRefreshConfig } from "./competition/SocialRefreshConfig.ts"
import { Discovery } from "./feed/Discovery.ts"
import { Feed } from "./feed/Feed.ts"
import { ContentHttp, FeedHttp } from "./feed/FeedHttp.ts"
import { FeedRepo } from "./feed/FeedRepo.ts"
import { FuelHttp } from "./fuel/FuelHttp.ts"
import { Gifts } from "./gifts/Gifts.ts"
import { GiftsConfig } from "./gifts/GiftsConfig.ts"
import { GiftsHttp } from "./gifts/GiftsHttp.ts"
import { GiftsRepo } from "./gifts/GiftsRepo.ts"
import { Shares } from "./shares/Shares.ts"
import { SharesHttp } from "./shares/SharesHttp.ts"
import { LinkedAccounts } from "./xauth/LinkedAccounts.ts"
import { XAuthCipher } from "./xauth/XAuthCipher.ts"
import { XAuthHttp } from "./xauth/XAuthHttp.ts"

/** Leaderboards and badges, refreshed in the background for the life of the client service. */
export const PrecomputedLive = SocialRefreshLive.pipe(
  Layer.provideMerge(Layer.mergeAll(Leaderboards.layer, Badges.layer)),
  Layer.provideMerge(SocialRefreshConfig.layer)
)

/** The services behind the social routes, over the process's database, chain and config. */
export const SocialServicesLive = Layer.mergeAll(
  FuelLedgerLive,
  Gifts.layer,
  Shares.layer,
  LinkedAccounts.layer,
  Feed.layer,
  Discovery.layer
).pipe(
  Layer.provideMerge(Layer.mergeAll(GiftsRepo.layer, GiftsConfig.layer, XAuthCipher.layer, FeedRepo.layer)),
  Layer.provideMerge(PrecomputedLive)
)

/** The client API's social routes: fuel, gifts, competition, badges, shares, x-auth, feeds, content. */
export const SocialHttpLive = Layer.mergeAll(
  FuelHttp,
  GiftsHttp,
  CompetitionHttp,
  BadgesHttp,
  SharesHttp,
  XAuthHttp,
  FeedHttp,
  ContentHttp
).pipe(
  Layer.provideMerge(SocialServicesLive),
  // The auth middlewares; the same layer value as the account routes', so one instance is built (layers memoize).
  Layer.provide(AccountServicesLive)
)
