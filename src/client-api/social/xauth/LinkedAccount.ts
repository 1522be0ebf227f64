import { Schema } from "effect"

/** The linked-account schemas of the x-auth routes (XAuthApi.ts) and of LinkedAccounts.ts. */

export const StoreTokensRequest = Schema.Struct({
  provider: Schema.optionalKey(Schema.Literals(["x"])).annotate({
    description: "The linked network; only `x` (default)"
  }),
  accessToken: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4096)).annotate({
    description: "OAuth access token"
  }),
  refreshToken: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4096))),
  expiresAt: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/u))
  ).annotate({
    description: "ISO 8601 expiry of the access token",
    examples: ["2026-12-31T23:59:59Z"]
  }),
  scope: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000))),
  accountId: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100))).annotate({
    description: "The account's id on the network"
  }),
  username: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100))).annotate({ description: "Its handle" })
}).annotate({ identifier: "StoreTokensRequest" })

/** What the API says about a linked account: never the tokens. */
export class LinkedAccount extends Schema.Class<LinkedAccount>("LinkedAccount")({
  provider: Schema.Literals(["x"]),
  accountId: Schema.NullOr(Schema.String),
  username: Schema.NullOr(Schema.String),
  scope: Schema.NullOr(Schema.String),
  hasRefreshToken: Schema.Boolean,
  expiresAt: Schema.NullOr(Schema.String),
  updatedAt: Schema.String
}) {}
