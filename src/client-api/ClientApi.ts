import { HttpApi, OpenApi } from "effect/http-api"
import { Validation } from "../platform/http/Validation.ts"
import { ClientIpLimit } from "./ClientIpLimit.ts"
import { ClaimsApi } from "./listings/claims/ClaimsApi.ts"
import { ImagesApi } from "./accounts/images/ImagesApi.ts"
import { LaunchesApi } from "./listings/launches/LaunchesApi.ts"
import { TokenAdminApi } from "./listings/moderation/TokenAdminApi.ts"
import { NotificationsApi } from "./notifications/NotificationsApi.ts"
import { PushApi } from "./notifications/push/PushApi.ts"
import { TokensApi } from "./listings/tokens/TokensApi.ts"
import { FuelApi } from "./social/fuel/FuelApi.ts"
import { GiftsApi } from "./social/gifts/GiftsApi.ts"
import { BadgesApi } from "./social/badges/BadgesApi.ts"
import { CompetitionApi } from "./social/competition/CompetitionApi.ts"
import { SharesApi } from "./social/shares/SharesApi.ts"
import { XAuthApi } from "./social/xauth/XAuthApi.ts"
import { ContentApi, FeedApi } from "./social/feed/FeedApi.ts"
import { CommentsApi } from "./comments/CommentsApi.ts"
import { EngagementApi } from "./comments/engagement/EngagementApi.ts"
import { SessionsApi } from "./accounts/sessions/SessionsApi.ts"
import { healthGroup, IpGroup, ProbesGroup } from "../platform/system/SystemApi.ts"
import { UsersApi } from "./accounts/users/UsersApi.ts"

/**
 * The client API (`/v1`): sessions, users, tokens, launches, comments, engagement, fuel, gifts, notifications,
 * feeds. Declared once here; the server, OpenAPI document, typed client and `app_*` MCP tools derive from it.
 */
export class ClientApi extends HttpApi.make("client")
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
  // The per-IP limit covers the groups added before it: every feature route, not the probes and health below.
  .middleware(ClientIpLimit)
  .add(healthGroup("/healthz"))
  .add(IpGroup)
  .add(ProbesGroup)
  // Must stay last: it covers only the groups added before it.
  .middleware(Validation)
  .annotateMerge(
    OpenApi.annotations({
      title: "fire-api client API",
      version: "1",
      description:
        "Social side of the launchpad. Errors: `{ code, message, details? }` with a stable SCREAMING_CASE code."
    })
  ) {}
