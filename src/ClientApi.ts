import { HttpApi, OpenApi } from "effect/http-api"
import { Validation } from "./http/Validation.ts"
import { ClaimsApi } from "./claims/ClaimsApi.ts"
import { ImagesApi } from "./images/ImagesApi.ts"
import { LaunchesApi } from "./launches/LaunchesApi.ts"
import { TokenAdminApi } from "./moderation/TokenAdminApi.ts"
import { NotificationsApi } from "./notifications/NotificationsApi.ts"
import { PushApi } from "./push/PushApi.ts"
import { TokensApi } from "./tokens/TokensApi.ts"
import { FuelApi } from "./fuel/FuelApi.ts"
import { GiftsApi } from "./gifts/GiftsApi.ts"
import { BadgesApi } from "./badges/BadgesApi.ts"
import { CompetitionApi } from "./competition/CompetitionApi.ts"
import { SharesApi } from "./shares/SharesApi.ts"
import { XAuthApi } from "./xauth/XAuthApi.ts"
import { ContentApi, FeedApi } from "./feed/FeedApi.ts"
import { CommentsApi } from "./comments/CommentsApi.ts"
import { EngagementApi } from "./engagement/EngagementApi.ts"
import { SessionsApi } from "./sessions/SessionsApi.ts"
import { healthGroup, IpGroup } from "./system/SystemApi.ts"
import { UsersApi } from "./users/UsersApi.ts"

/**
 * The client API (`/v1`): sessions, users, tokens, launches, comments, engagement, fuel, gifts, notifications,
 * feeds. Declared once here; the server, OpenAPI document, typed client and `app_*` MCP tools derive from it.
 */
export class ClientApi extends HttpApi.make("client")
  .add(healthGroup("/healthz"))
  .add(IpGroup)
  .add(SessionsApi)
  .add(UsersApi)
  .add(ImagesApi)
  .add(NotificationsApi)
  .add(PushApi)
  .add(TokensApi)
  .add(ClaimsApi)
  .add(LaunchesApi)
  .add(TokenAdminApi)
  .add(FuelApi)
  .add(GiftsApi)
  .add(CompetitionApi)
  .add(BadgesApi)
  .add(SharesApi)
  .add(XAuthApi)
  .add(FeedApi)
  .add(ContentApi)
  .add(CommentsApi)
  .add(EngagementApi)
  // Must stay last: it covers only the groups added before it.
  .middleware(Validation)
  .annotateMerge(OpenApi.annotations({
    title: "fire-api client API",
    version: "1",
    description: "Social side of the launchpad. Errors: `{ code, message, details? }` with a stable SCREAMING_CASE code."
  }))
{}
