import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { OptionalAuthentication } from "../../accounts/auth/Authentication.ts"
import { BadRequest } from "../../../platform/ApiError.ts"
import { pageQueryFields } from "../../../platform/PageQuery.ts"
import { DARE_RULES, Sidebar, ViralDares } from "./DiscoveryModels.ts"
import { FEED_RULES, FEED_TYPES, FeedPage } from "./FeedItem.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const SOURCES =
  "Sources: LAUNCH = canonical launches and FUEL = FuelGiven events (indexed chain data; a reorg removes the items of " +
  "replaced blocks), YAP = comments, SHILL = share links created (POST /v1/shares)."

/** The social feed and discovery widgets. */
export class FeedApi extends HttpApiGroup.make("feed")
  .add(
    HttpApiEndpoint.get("getFeed", "/v1/feed", {
      query: {
        type: Schema.optional(Schema.Literals(FEED_TYPES)).annotate({
          description: "ALL (default: launches, yaps, fuels), LAUNCHES, YAPS or FUELS"
        }),
        ...pageQueryFields
      },
      success: FeedPage,
      error: BadRequest
    })
      .middleware(OptionalAuthentication)
      .annotateMerge(doc("Social feed", `${FEED_RULES} ${SOURCES} One SQL query per page.`)),
    HttpApiEndpoint.get("getFeedContent", "/v1/feed/content", {
      query: pageQueryFields,
      success: FeedPage,
      error: BadRequest
    }).annotateMerge(doc("Yaps and shills", `Yaps and shills, newest first, cursor pages. ${SOURCES}`)),
    HttpApiEndpoint.get("getViralDares", "/v1/feed/dares/viral", {
      query: {
        limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 50 }))).annotate({
          description: "1–50 (default 10)"
        })
      },
      success: ViralDares,
      error: BadRequest
    }).annotateMerge(doc("Trending dare tokens", DARE_RULES)),
    HttpApiEndpoint.get("getFeedSidebar", "/v1/feed/sidebar", { success: Sidebar }).annotateMerge(
      doc(
        "Sidebar widgets",
        "Trending tokens, newest launches and top gainers over the 24 h before the latest indexed block."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Feed", description: "The social feed, dares and sidebar widgets" })) {}

const stream = <const Id extends string>(id: Id, path: `/v1/content/${string}`, what: string) =>
  HttpApiEndpoint.get(id, path, { query: pageQueryFields, success: FeedPage, error: BadRequest }).annotateMerge(
    doc(`Content stream: ${path.slice("/v1/content/".length)}`, `${what}, newest first, cursor pages. ${SOURCES}`)
  )

/** Public content streams. */
export class ContentApi extends HttpApiGroup.make("content")
  .add(
    stream("listContentYaps", "/v1/content/yaps", "Yaps (comments) on every token"),
    stream("listContentShills", "/v1/content/shills", "Shills: share links users created for tokens"),
    stream("listContentTips", "/v1/content/tips", "Fuel tips (FuelGiven) on every token"),
    stream(
      "getLandingTicker",
      "/v1/content/landing-ticker",
      "The latest launches, tips, yaps and shills together, for the landing page ticker"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Content", description: "Public content streams" })) {}
