import { Schema } from "effect"

/** `limit` and `cursor` query parameters shared by the cursor-paginated lists of the social features. */
export const pageQueryFields = {
  limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))).annotate({
    description: "Page size, 1–100 (default 20)"
  }),
  cursor: Schema.optional(Schema.String.check(Schema.isMaxLength(200))).annotate({
    description: "`nextCursor` of the previous page; 400 INVALID_CURSOR when malformed"
  })
}
