import { Schema } from "effect"
import { getAddress } from "viem"
import { MintAddress } from "../Listing.ts"

/** The launch flow's model: statuses, the create payload and its rules, the database row and the API view. */

export const LaunchStatuses = ["DRAFT", "IMAGE_UPLOADED", "COMPLETED", "FAILED"] as const
export type LaunchStatus = (typeof LaunchStatuses)[number]
export const LaunchStatus = Schema.Literals(LaunchStatuses).annotate({
  description:
    "TokenLaunchStatus. Pending = DRAFT or IMAGE_UPLOADED. DRAFT →(image) IMAGE_UPLOADED →(submit) " +
    "COMPLETED; DRAFT | IMAGE_UPLOADED →(fail) FAILED; DRAFT →(delete) removed"
})

/** The documented category list (the spec leaves it open). */
export const LaunchCategories = [
  "meme",
  "ai",
  "gaming",
  "defi",
  "art",
  "music",
  "sports",
  "community",
  "other"
] as const
export const LaunchCategory = Schema.Literals(LaunchCategories).annotate({
  description: `One of: ${LaunchCategories.join(", ")}`
})

export const LaunchName = Schema.String.check(Schema.isPattern(/^(?!\s)(?!.*\s$)[^\p{Cc}]{1,32}$/u)).annotate({
  description: "Token name: 1–32 characters, no control characters, no leading or trailing space"
})
export const LaunchSymbol = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,10}$/u)).annotate({
  description: "Ticker: 1–10 letters or digits. Compared case-insensitively for DUPLICATE_LAUNCH",
  examples: ["PEPE"]
})
export const LaunchDescription = Schema.String.check(Schema.isPattern(/^(?:[^\p{Cc}]|\n){0,500}$/u)).annotate({
  description: "Up to 500 characters; line breaks allowed, other control characters not"
})

export const LaunchId = Schema.String.check(Schema.isUUID()).annotate({ description: "Launch id (UUID)" })

export const CreateLaunchPayload = Schema.Struct({
  name: LaunchName,
  symbol: LaunchSymbol,
  description: Schema.optionalKey(LaunchDescription),
  category: LaunchCategory,
  chainId: Schema.Int.annotate({ description: "Chain to launch on: must be the chain this service is configured for" })
}).annotate({ identifier: "CreateLaunch" })
export type CreateLaunch = typeof CreateLaunchPayload.Type

export const SubmitLaunchPayload = Schema.Struct({
  tokenAddress: MintAddress.annotate({ description: "The token FireLaunch.ignite created (from the Ignited event)" })
}).annotate({ identifier: "SubmitLaunch" })

export const LaunchRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  chainId: Schema.Int,
  name: Schema.String,
  symbol: Schema.String,
  description: Schema.NullOr(Schema.String),
  category: Schema.String,
  status: LaunchStatus,
  image: Schema.NullOr(Schema.String),
  tokenAddress: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  completedAt: Schema.NullOr(Schema.Date),
  failedAt: Schema.NullOr(Schema.Date)
})
export type Launch = typeof LaunchRow.Type

const iso = (description: string) => Schema.NullOr(Schema.String).annotate({ description })

export class LaunchView extends Schema.Class<LaunchView>("Launch")({
  id: LaunchId,
  name: Schema.String,
  symbol: Schema.String,
  description: Schema.NullOr(Schema.String),
  category: Schema.String,
  chainId: Schema.Int,
  status: LaunchStatus,
  image: Schema.NullOr(Schema.String).annotate({ description: "`/v1/images/<sha256>.webp` once uploaded" }),
  tokenAddress: Schema.NullOr(Schema.String).annotate({ description: "Set by submit (checksummed)" }),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  completedAt: iso("ISO 8601 time of COMPLETED"),
  failedAt: iso("ISO 8601 time of FAILED")
}) {}

export class LaunchList extends Schema.Class<LaunchList>("LaunchList")({
  items: Schema.Array(LaunchView).annotate({ description: "Newest first" })
}) {}

export const toLaunchView = (l: Launch) =>
  new LaunchView({
    id: l.id,
    name: l.name,
    symbol: l.symbol,
    description: l.description,
    category: l.category,
    chainId: l.chainId,
    status: l.status,
    image: l.image,
    tokenAddress: l.tokenAddress === null ? null : getAddress(l.tokenAddress),
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
    completedAt: l.completedAt?.toISOString() ?? null,
    failedAt: l.failedAt?.toISOString() ?? null
  })
