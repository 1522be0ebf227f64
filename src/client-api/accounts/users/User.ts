import { Schema } from "effect"

/**
 * The user model: the database row, the views the API returns, and the rules of the editable fields. API schemas
 * here carry their rules in annotations so that OpenAPI documents them.
 */

export const UserId = Schema.String.check(Schema.isUUID()).annotate({
  description: "User id (UUID)",
  examples: ["0b6f3c1e-8f7a-4d1e-9a51-2b1f0c9e7d11"]
})

export const WalletAddress = Schema.String.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/u)).annotate({
  description: "EVM address (0x + 40 hex digits, any case); responses are EIP-55 checksummed",
  examples: ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"]
})

export const USERNAME_RULES =
  "3–20 characters from a–z, 0–9 and _; case-insensitive (stored lower-case) and unique; reserved names are refused"

/** Names that could impersonate the service or collide with routes. */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  "admin",
  "administrator",
  "root",
  "system",
  "support",
  "help",
  "api",
  "fire",
  "fireapi",
  "official",
  "moderator",
  "mod",
  "mods",
  "staff",
  "team",
  "security",
  "null",
  "undefined",
  "me",
  "settings",
  "login",
  "logout",
  "signup",
  "signin",
  "about",
  "docs",
  "www",
  "mail",
  "profile",
  "users",
  "user",
  "session",
  "sessions",
  "launch",
  "token",
  "tokens",
  "anonymous",
  "everyone",
  "here"
])

export const Username = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_]{3,20}$/u)).annotate({
  description: `Username: ${USERNAME_RULES}`,
  examples: ["satoshi_21"]
})

export const DisplayName = Schema.String.check(Schema.isPattern(/^(?!\s*$)[^\p{Cc}]{1,50}$/u)).annotate({
  description: "Display name: 1–50 characters, not blank, no control characters (surrounding spaces are trimmed)"
})

export const Bio = Schema.String.check(Schema.isPattern(/^(?:[^\p{Cc}]|\n){0,280}$/u)).annotate({
  description: "Bio: up to 280 characters; line breaks allowed, other control characters not"
})

export const IMAGE_PATH_PATTERN = /^\/v1\/images\/[0-9a-f]{64}\.webp$/u
export const ImagePath = Schema.String.check(Schema.isPattern(IMAGE_PATH_PATTERN)).annotate({
  description: "Path of an image uploaded through POST /v1/users/profile/image (`/v1/images/<sha256>.webp`)"
})

/** A users row as read from PostgreSQL (camelCase through the client's transforms). */
export const UserRow = Schema.Struct({
  id: Schema.String,
  idpDid: Schema.String,
  walletAddress: Schema.NullOr(Schema.String),
  username: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  bio: Schema.NullOr(Schema.String),
  image: Schema.NullOr(Schema.String),
  isAdmin: Schema.Boolean,
  bannedAt: Schema.NullOr(Schema.Date),
  hiddenAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export type User = typeof UserRow.Type

const nullable = <S extends Schema.Top>(schema: S, description: string) =>
  Schema.NullOr(schema).annotate({ description })

/** The user as returned with a new session (POST /v1/session/wallet/verify, /v1/session/create). */
export class SessionUser extends Schema.Class<SessionUser>("SessionUser")({
  id: UserId,
  walletAddress: nullable(Schema.String, "Checksummed wallet address; null for an IdP user without a wallet"),
  name: nullable(Schema.String, "Display name"),
  image: nullable(Schema.String, "Avatar URL path (served by GET /v1/images/{file})")
}) {}

const publicFields = {
  id: UserId,
  walletAddress: nullable(Schema.String, "Checksummed wallet address; null for an IdP user without a wallet"),
  username: nullable(Schema.String, "Lower-case username, null until chosen"),
  name: nullable(Schema.String, "Display name"),
  bio: nullable(Schema.String, "Bio"),
  image: nullable(Schema.String, "Avatar URL path (served by GET /v1/images/{file})"),
  createdAt: Schema.String.annotate({ description: "ISO 8601 time the user was created" })
}

/** What anyone may see of a user (GET /v1/users/profile/address/{wallet}). */
export class PublicProfile extends Schema.Class<PublicProfile>("PublicProfile")(publicFields) {}

/** The signed-in user's own view (GET /v1/users/me, PATCH /v1/users/profile). */
export class OwnProfile extends Schema.Class<OwnProfile>("OwnProfile")({
  ...publicFields,
  idpDid: Schema.String.annotate({ description: "Identity-provider DID; `wallet:<address>` for wallet-created users" }),
  isAdmin: Schema.Boolean
}) {}

/** A user as moderators see it (PATCH /v1/users/admin/{userId}). */
export class ModeratedUser extends Schema.Class<ModeratedUser>("ModeratedUser")({
  ...publicFields,
  idpDid: Schema.String,
  isAdmin: Schema.Boolean,
  banned: Schema.Boolean,
  hidden: Schema.Boolean
}) {}

export const toSessionUser = (u: User) =>
  new SessionUser({ id: u.id, walletAddress: u.walletAddress, name: u.name, image: u.image })

const publicOf = (u: User) => ({
  id: u.id,
  walletAddress: u.walletAddress,
  username: u.username,
  name: u.name,
  bio: u.bio,
  image: u.image,
  createdAt: u.createdAt.toISOString()
})

export const toPublicProfile = (u: User) => new PublicProfile(publicOf(u))
export const toOwnProfile = (u: User) => new OwnProfile({ ...publicOf(u), idpDid: u.idpDid, isAdmin: u.isAdmin })
export const toModeratedUser = (u: User) =>
  new ModeratedUser({
    ...publicOf(u),
    idpDid: u.idpDid,
    isAdmin: u.isAdmin,
    banned: u.bannedAt !== null,
    hidden: u.hiddenAt !== null
  })
