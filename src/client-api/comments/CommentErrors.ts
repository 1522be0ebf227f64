import { Effect } from "effect"
import { getAddress } from "viem"
import { BadRequest, Forbidden, Gone, NotFound } from "../../platform/ApiError.ts"
import { tokenDeleted, tokenNotFound } from "../listings/Listing.ts"
import type { TokenState } from "./CommentsRepo.ts"

/** The errors of the comment routes, one place so the OpenAPI descriptions and the code agree. */

export const commentNotFound = (id: number | string) =>
  new NotFound({ code: "COMMENT_NOT_FOUND", message: `No comment ${id}`, details: { id } })

export const commentDeleted = (id: number) =>
  new Gone({ code: "COMMENT_DELETED", message: `Comment ${id} was deleted`, details: { id } })

export const notYours = (id: number) =>
  new Forbidden({ code: "NOT_COMMENT_AUTHOR", message: `Comment ${id} is not yours`, details: { id } })

export const invalidCursor = () =>
  new BadRequest({ code: "INVALID_CURSOR", message: "The cursor is not one this route returned" })

/** Cursors are the post number of the last item of the previous page. */
export const decodeCursor = (cursor: string | undefined): Effect.Effect<number | undefined, BadRequest> =>
  cursor === undefined
    ? Effect.succeed(undefined)
    : /^[1-9]\d{0,9}$/.test(cursor) && Number(cursor) <= 2_147_483_647
      ? Effect.succeed(Number(cursor))
      : Effect.fail(invalidCursor())

/** 404 TOKEN_NOT_FOUND / 410 TOKEN_DELETED, as the token routes answer. */
export const requireVisible = (token: string, state: TokenState): Effect.Effect<void, NotFound | Gone> =>
  state === "visible"
    ? Effect.void
    : state === "hidden"
      ? Effect.fail(tokenDeleted(getAddress(token)))
      : Effect.fail(tokenNotFound(getAddress(token)))
