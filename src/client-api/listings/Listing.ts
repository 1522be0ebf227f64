import { Schema } from "effect"
import { getAddress } from "viem"
import { BadRequest, Conflict, Forbidden, Gone, NotFound, ServiceUnavailable } from "../../platform/ApiError.ts"

/**
 * What the token, claim, launch and moderation features share about a token listing: the address schema and the
 * listing errors, with the HTTP status each code always has (ClaimErrorCodes of the spec and the listing codes).
 */

export const MintAddress = Schema.String.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/u)).annotate({
  description: "Token (mint) address: 0x + 40 hex digits, any case. Responses give it EIP-55 checksummed.",
  examples: ["0x5FbDB2315678afecb367f032d93F642f64180aa3"]
})

/** Lowercase form used in the database (like the indexed tables). */
export const dbAddress = (address: string) => address.toLowerCase()
export const checksum = (address: string) => getAddress(address)

export const tokenNotFound = (address: string) =>
  new NotFound({
    code: "TOKEN_NOT_FOUND",
    message: `No launched token at ${address} (not a FireLaunch token, not canonical, or not indexed yet)`,
    details: { mintAddress: address }
  })

export const tokenDeleted = (address: string) =>
  new Gone({
    code: "TOKEN_DELETED",
    message: `The token ${address} was removed by an administrator`,
    details: { mintAddress: address }
  })

export const alreadyClaimed = (address: string) =>
  new Conflict({
    code: "ALREADY_CLAIMED",
    message: `The token ${address} already has a creator (it was claimed or submitted by a launch)`,
    details: { mintAddress: address }
  })

export const notCreator = (message: string, details: Record<string, unknown>) =>
  new Forbidden({ code: "NOT_CREATOR", message, details })

export const chainUnavailable = () =>
  new ServiceUnavailable({ code: "CHAIN_UNAVAILABLE", message: "Cannot read the chain now; retry" })

export const imageRequired = () =>
  new BadRequest({
    code: "IMAGE_REQUIRED",
    message: "Send the image as multipart/form-data with one file part named `file`"
  })
