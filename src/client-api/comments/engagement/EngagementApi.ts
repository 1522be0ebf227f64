import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authentication } from "../../accounts/auth/Authentication.ts"
import { CommentId, TOKEN_ERRORS } from "../Comment.ts"
import { BadRequest, Gone, NotFound } from "../../../platform/ApiError.ts"
import { MintAddress } from "../../listings/Listing.ts"
import { pageQueryFields } from "../../../platform/PageQuery.ts"
import { EngagementState, FavoritePage, TargetType } from "./Engagement.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const RULES =
  "A toggle: no body; each call flips the caller's state and answers the new state with the target's " +
  "counts. Like and dislike exclude each other (liking a disliked target removes the dislike, and the other way " +
  "round). Concurrent toggles on one target are serialised by a row lock: n calls end in the state of n's parity " +
  "and counts never go negative."
const COMMENT = "404 COMMENT_NOT_FOUND; 410 COMMENT_DELETED; 400 INVALID_PATH."

/** The six toggles: {likes, dislike, favorites} × {comments/{id}, tokens/{mintAddress}}. */
const toggles = (prefix: "likes" | "dislike" | "favorites", verb: string, extra: string) =>
  [
    HttpApiEndpoint.post(`${prefix}ToggleComment`, `/v1/${prefix}/comments/:id`, {
      params: { id: CommentId },
      success: EngagementState,
      error: [BadRequest, NotFound, Gone]
    })
      .middleware(Authentication)
      .annotateMerge(doc(`Toggle ${verb} on a comment`, `${RULES} ${extra} ${COMMENT}`)),
    HttpApiEndpoint.post(`${prefix}ToggleToken`, `/v1/${prefix}/tokens/:mintAddress`, {
      params: { mintAddress: MintAddress },
      success: EngagementState,
      error: [BadRequest, NotFound, Gone]
    })
      .middleware(Authentication)
      .annotateMerge(doc(`Toggle ${verb} on a token`, `${RULES} ${TOKEN_ERRORS}.`))
  ] as const

const [likeComment, likeToken] = toggles(
  "likes",
  "like",
  "A new like notifies the comment's author (COMMENT_LIKE, once per liker and comment)."
)
const [dislikeComment, dislikeToken] = toggles("dislike", "dislike", "")
const [favoriteComment, favoriteToken] = toggles("favorites", "favorite", "")

/** Likes, dislikes and favorites on comments and tokens, and the caller's favorites (JWT). */
export class EngagementApi extends HttpApiGroup.make("engagement")
  .add(likeComment, likeToken, dislikeComment, dislikeToken, favoriteComment, favoriteToken)
  .add(
    HttpApiEndpoint.get("listFavorites", "/v1/favorites", {
      query: {
        type: Schema.optional(TargetType).annotate({ description: "Only comments or only tokens (default both)" }),
        ...pageQueryFields
      },
      success: FavoritePage,
      error: BadRequest
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "My favorites",
          "Comments and tokens the caller favorited, newest first, keyset pages (`limit` 1–100, default 20; `cursor`): " +
            "stable while favorites are added. Tokens come with their indexed name, symbol and image; comments as views. " +
            "Tokens favorited here also head the personalised feed (relevance FAVORITE). 400 INVALID_CURSOR."
        )
      )
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Engagement",
      description:
        "POST toggles under /v1/likes, /v1/dislike and /v1/favorites for comments (`/comments/{id}`) and tokens " +
        "(`/tokens/{mintAddress}`), no request body; GET /v1/favorites lists the caller's favorites."
    })
  ) {}
