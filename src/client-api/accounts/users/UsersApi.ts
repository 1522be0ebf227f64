import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AdminAuthentication, Authentication, OptionalAuthentication } from "../auth/Authentication.ts"
import { BadRequest, Conflict, NotFound, PayloadTooLarge } from "../../../platform/ApiError.ts"
import { ImageUploadLimits } from "../images/ImageUploadLimits.ts"
import {
  Bio,
  DisplayName,
  ImagePath,
  ModeratedUser,
  OwnProfile,
  PublicProfile,
  UserId,
  Username,
  USERNAME_RULES,
  WalletAddress
} from "./User.ts"
import { UserStats, WidgetPage } from "./UserWidgets.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

export const ProfileUpdate = Schema.Struct({
  name: Schema.optionalKey(Schema.NullOr(DisplayName)),
  bio: Schema.optionalKey(Schema.NullOr(Bio)),
  image: Schema.optionalKey(Schema.NullOr(ImagePath)),
  username: Schema.optionalKey(Schema.NullOr(Username))
}).annotate({
  identifier: "ProfileUpdate",
  description: "Fields to change; an absent field is kept, null clears it"
})

export class UsernameAvailability extends Schema.Class<UsernameAvailability>("UsernameAvailability")({
  username: Schema.String.annotate({ description: "The name as it would be stored (lower-case)" }),
  available: Schema.Boolean,
  reason: Schema.NullOr(Schema.Literals(["TAKEN", "RESERVED"])).annotate({ description: "Why it is not available" })
}) {}

export const Moderation = Schema.Struct({
  banned: Schema.optionalKey(Schema.Boolean).annotate({
    description: "Ban (every JWT route answers 403 USER_BANNED) or unban"
  }),
  admin: Schema.optionalKey(Schema.Boolean).annotate({ description: "Grant or revoke `isAdmin`" }),
  hidden: Schema.optionalKey(Schema.Boolean).annotate({
    description: "Hide the public profile (404 to others) or show it"
  }),
  reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))).annotate({
    description: "Kept in the audit log"
  })
}).annotate({ identifier: "Moderation" })

const widgetQuery = {
  address: Schema.optional(WalletAddress).annotate({ description: "Whose widget; the signed-in user's when absent" })
}
const pageQuery = {
  ...widgetQuery,
  limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))).annotate({
    description: "Page size, 1–100 (default 20)"
  }),
  cursor: Schema.optional(Schema.String.check(Schema.isMaxLength(200))).annotate({ description: "From `nextCursor`" })
}

const widget = <const Id extends string>(id: Id, name: "activity" | "yaps" | "fuels" | "trades", what: string) =>
  HttpApiEndpoint.get(id, `/v1/users/${name}`, {
    query: pageQuery,
    success: WidgetPage,
    error: [BadRequest, NotFound]
  })
    .middleware(OptionalAuthentication)
    .annotateMerge(
      doc(
        `Profile widget: ${name}`,
        `${what} of \`address\` (or of the signed-in user), newest first. Empty until the feature that produces them ` +
          "exists. 400 ADDRESS_REQUIRED without `address` and without a session; 404 USER_NOT_FOUND for a hidden profile."
      )
    )

/** Profiles, usernames, avatars, profile widgets and moderation. */
export class UsersApi extends HttpApiGroup.make("users")
  .add(
    HttpApiEndpoint.get("getMe", "/v1/users/me", { success: OwnProfile })
      .middleware(Authentication)
      .annotateMerge(doc("My profile", "The signed-in user's own profile.")),
    HttpApiEndpoint.get("getProfileByAddress", "/v1/users/profile/address/:wallet", {
      params: { wallet: WalletAddress },
      success: PublicProfile,
      error: [BadRequest, NotFound]
    }).annotateMerge(doc("Public profile by wallet", "Public fields only. 404 USER_NOT_FOUND (unknown or hidden).")),
    HttpApiEndpoint.get("checkUsername", "/v1/users/username/check", {
      query: { username: Username },
      success: UsernameAvailability,
      error: BadRequest
    }).annotateMerge(
      doc("Is a username available?", `Rules: ${USERNAME_RULES}. A malformed name → 400 INVALID_QUERY.`)
    ),
    HttpApiEndpoint.patch("updateProfile", "/v1/users/profile", {
      payload: ProfileUpdate,
      success: OwnProfile,
      error: [BadRequest, Conflict]
    })
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Update my profile",
          `name (1–50), bio (≤ 280), image (a path from the upload route), username (${USERNAME_RULES}). ` +
            "400 USERNAME_RESERVED, IMAGE_NOT_FOUND, INVALID_BODY; 409 USERNAME_TAKEN."
        )
      ),
    HttpApiEndpoint.post("uploadProfileImage", "/v1/users/profile/image", {
      payload: Schema.Struct({ file: Multipart.SingleFileSchema }).pipe(HttpApiSchema.asMultipart()),
      success: OwnProfile,
      error: [BadRequest, PayloadTooLarge]
    })
      .middleware(ImageUploadLimits)
      .middleware(Authentication)
      .annotateMerge(
        doc(
          "Upload my avatar",
          "multipart/form-data with one file part `file`: PNG, JPEG, GIF or WebP by content (magic bytes), at most " +
            "IMAGE_MAX_BYTES (1,000,000 by default). Re-encoded to WebP within IMAGE_MAX_DIMENSION² (512) with all " +
            "metadata removed, stored by content hash; the profile's `image` becomes `/v1/images/<sha256>.webp`. " +
            "400 NOT_AN_IMAGE, INVALID_BODY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE (not multipart)."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("getStats", "/v1/users/stats", {
      query: widgetQuery,
      success: UserStats,
      error: [BadRequest, NotFound]
    })
      .middleware(OptionalAuthentication)
      .annotateMerge(
        doc(
          "Profile widget: stats",
          "Counters of `address` (or of the signed-in user). They stay 0 until comments, fuel and trades exist. " +
            "400 ADDRESS_REQUIRED; 404 USER_NOT_FOUND for a hidden profile."
        )
      ),
    widget("getActivity", "activity", "Recent activity"),
    widget("getYaps", "yaps", "Comments"),
    widget(
      "getFuels",
      "fuels",
      "Fuel (tips) given and received (the indexed FuelVault events of /v1/fuel/*; each item is a FuelTransaction plus `direction`: given | received)"
    ),
    widget("getTrades", "trades", "Trades")
  )
  .add(
    HttpApiEndpoint.patch("moderateUser", "/v1/users/admin/:userId", {
      params: { userId: UserId },
      payload: Moderation,
      success: ModeratedUser,
      error: [BadRequest, NotFound]
    })
      .middleware(AdminAuthentication)
      .annotateMerge(
        doc(
          "Moderate a user (admin)",
          "Ban/unban, grant/revoke admin, hide/show the profile; one audit row per change. A ban takes effect on every " +
            "API process within SESSION_CACHE_MS. 400 CANNOT_MODERATE_SELF (an admin cannot ban, hide or demote " +
            "themselves); 404 USER_NOT_FOUND; 403 FORBIDDEN for non-admins."
        )
      )
  )
  .annotateMerge(OpenApi.annotations({ title: "Users", description: "Profiles, usernames, avatars and moderation" })) {}
