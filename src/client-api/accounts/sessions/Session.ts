import { Schema } from "effect"
import { OwnProfile, SessionUser, type User, WalletAddress } from "../users/User.ts"

/** A session the auth middleware accepted: the JWT verified, its row not revoked or expired, the user loaded. */
export interface AuthenticatedSession {
  /** The JWT's `jti`, the sessions row id. */
  readonly sessionId: string
  readonly method: SignInMethod
  readonly createdAt: Date
  readonly expiresAt: Date
  /** The sign-in this session was refreshed from (its own creation for a first session): SESSION_MAX_LIFETIME counts from it. */
  readonly signedInAt: Date
  readonly user: User
}

export type SignInMethod = "wallet" | "idp"

/** A freshly issued session: what sign-in and refresh return (the JWT is also set as the session cookie). */
export interface IssuedSession {
  readonly sessionId: string
  readonly token: string
  readonly expiresAt: Date
  readonly user: User
}

export const WalletNonceQuery = {
  address: WalletAddress
}

export class WalletNonce extends Schema.Class<WalletNonce>("WalletNonce")({
  nonce: Schema.String.annotate({
    description: "Put it in the message's `Nonce:` line; single use, bound to the address"
  }),
  expiresAt: Schema.String.annotate({ description: "ISO 8601 time the nonce stops being accepted (5 minutes)" })
}) {}

export const WalletVerifyPayload = Schema.Struct({
  // A full EIP-4361 message with a statement and a few resources is well under 2 KiB.
  message: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4096)).annotate({
    description:
      "The EIP-4361 text that was signed (at most 4,096 characters). Required: the address line and `Nonce:`; the other standard lines " +
      "are checked when present (domain, URI scheme, Chain ID, Expiration Time, Not Before)."
  }),
  // ERC-6492 wraps the factory call that deploys the wallet; 2 KiB holds the usual factories' calldata.
  signature: Schema.String.check(Schema.isPattern(/^0x(?:[0-9a-fA-F]{2}){1,2048}$/u)).annotate({
    description:
      "personal_sign signature of `message` (hex, at most 2,048 bytes): 65 bytes for an EOA, longer for " +
      "ERC-1271/ERC-6492 wallets"
  })
})

export const IdpLoginPayload = Schema.Struct({
  idToken: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(16384)).annotate({
    description: "ID token (JWT) of the configured identity provider; its `sub` is the user's DID"
  })
})

export class SessionToken extends Schema.Class<SessionToken>("SessionToken")({
  token: Schema.String.annotate({ description: "Session JWT (HS256) for `Authorization: Bearer`; also set as cookie" }),
  expiresAt: Schema.String.annotate({
    description: "ISO 8601 expiry of the JWT (JWT_TTL after issue, 7 days by default)"
  }),
  user: SessionUser
}) {}

export class CurrentSessionView extends Schema.Class<CurrentSessionView>("CurrentSession")({
  sessionId: Schema.String.annotate({ description: "The JWT's jti" }),
  method: Schema.Literals(["wallet", "idp"]).annotate({ description: "How the session was signed in" }),
  createdAt: Schema.String,
  expiresAt: Schema.String,
  user: OwnProfile
}) {}

export const WalletStatePayload = Schema.Struct({
  status: Schema.Literals(["connected", "disconnected", "changed"]).annotate({
    description: "What happened in the client: a wallet connected, disconnected, or changed account/chain"
  }),
  address: Schema.optionalKey(WalletAddress),
  chainId: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 2 ** 53 - 1 }))),
  connector: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^[A-Za-z0-9 ._-]{1,64}$/u)).annotate({
      description:
        "Wallet connector id, e.g. `injected`, `walletConnect`, `coinbaseWallet` (1–64 of A–Z a–z 0–9 space . _ -)"
    })
  )
}).annotate({ identifier: "WalletState" })

export class WalletStateRecorded extends Schema.Class<WalletStateRecorded>("WalletStateRecorded")({
  recorded: Schema.Boolean,
  userId: Schema.NullOr(Schema.String).annotate({
    description: "The signed-in user it was linked to, if a JWT was sent"
  })
}) {}
