import { Layer } from "effect"
import { ClaimsHttp } from "./claims/ClaimsHttp.ts"
import { Claims } from "./claims/Claims.ts"
import { ImageRequiredLive } from "./claims/ImageRequired.ts"
import { Launches } from "./launches/Launches.ts"
import { LaunchesHttp } from "./launches/LaunchesHttp.ts"
import { LaunchesRepo } from "./launches/LaunchesRepo.ts"
import { ReportsRepo } from "./moderation/ReportsRepo.ts"
import { TokenAdminHttp } from "./moderation/TokenAdminHttp.ts"
import { TokenModeration } from "./moderation/TokenModeration.ts"
import { Tokens } from "./tokens/Tokens.ts"
import { TokensHttp } from "./tokens/TokensHttp.ts"
import { TokensRepo } from "./tokens/TokensRepo.ts"
import { LaunchpadDeployedLive } from "./LaunchpadDeployedLive.ts"
import { LaunchpadReader } from "./LaunchpadReader.ts"
import { ListingsRepo } from "./ListingsRepo.ts"

/**
 * The client API's token-listing routes (tokens, claims, launches, token moderation) and their services. Needs the
 * process's infrastructure (database, Chain, AppConfig, file system) and what the account features provide
 * (Users, ImageStore, the auth and image-limit middlewares, the signature verifier).
 */
export const ListingsHttpLive = Layer.mergeAll(TokensHttp, ClaimsHttp, LaunchesHttp, TokenAdminHttp).pipe(
  Layer.provideMerge(
    Layer.mergeAll(Claims.layer, Launches.layer, TokenModeration.layer, ImageRequiredLive, LaunchpadDeployedLive)
  ),
  Layer.provideMerge(Tokens.layer),
  Layer.provideMerge(
    Layer.mergeAll(LaunchpadReader.layer, ListingsRepo.layer, TokensRepo.layer, LaunchesRepo.layer, ReportsRepo.layer)
  )
)
