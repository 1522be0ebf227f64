import { Context, Effect, Layer, Option } from "effect"
import { getAddress } from "viem"
import { Chain } from "../../../platform/Chain.ts"
import { BadRequest } from "../../../platform/ApiError.ts"
import { decodeEventCursor, encodeEventCursor } from "../../../platform/EventCursor.ts"
import { FuelCredits, FuelTransactionPage, TokenFuelBalance } from "./Fuel.ts"
import { FuelRepo, type FuelSide, toFuelTransaction } from "./FuelRepo.ts"

export const invalidCursor = () =>
  new BadRequest({ code: "INVALID_CURSOR", message: "Malformed cursor: pass a nextCursor back unchanged" })

export interface FuelPageInput {
  /** Null (an account without a wallet): an empty page. */
  readonly wallet: string | null
  readonly side: FuelSide
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
}

/**
 * The fuel model (documented on the routes): a creator's on-chain balance is, per token it created, fuel received
 * minus fuel withdrawn (= FuelVault.fuelOf); it is withdrawable until the token graduates, locked after. Gift credits
 * (off-chain) add to the usable balance. Everything is summed from indexed events at read time.
 */
export class FuelLedger extends Context.Service<
  FuelLedger,
  {
    readonly page: (input: FuelPageInput) => Effect.Effect<FuelTransactionPage, BadRequest>
    readonly credits: (user: {
      readonly id: string
      readonly walletAddress: string | null
    }) => Effect.Effect<FuelCredits>
    readonly counts: (wallet: string) => Effect.Effect<{ readonly given: number; readonly received: number }>
  }
>()("app/fuel/FuelLedger") {
  static readonly layer = Layer.effect(
    FuelLedger,
    Effect.gen(function* () {
      const repo = yield* FuelRepo
      const { chainId } = yield* Chain

      const page = Effect.fn("FuelLedger.page")(function* (input: FuelPageInput) {
        const before = input.cursor === undefined ? Option.none() : decodeEventCursor(input.cursor)
        if (input.cursor !== undefined && Option.isNone(before)) return yield* invalidCursor()
        if (input.wallet === null) return new FuelTransactionPage({ walletAddress: null, items: [], nextCursor: null })
        const limit = input.limit ?? 20
        const rows = yield* repo.transactions({ chainId, wallet: input.wallet, side: input.side, before, limit })
        const shown = rows.slice(0, limit)
        const last = shown[shown.length - 1]
        const wallet = input.wallet.toLowerCase()
        return new FuelTransactionPage({
          walletAddress: getAddress(input.wallet),
          items: shown.map((row) =>
            toFuelTransaction(row, input.side === "both" ? (row.sender === wallet ? "given" : "received") : input.side)
          ),
          nextCursor: rows.length > limit && last !== undefined ? encodeEventCursor(last) : null
        })
      })

      const credits = Effect.fn("FuelLedger.credits")(function* (user: {
        readonly id: string
        readonly walletAddress: string | null
      }) {
        const [rows, gifts, block] = yield* Effect.all(
          [
            user.walletAddress === null ? Effect.succeed([]) : repo.creditsByToken(chainId, user.walletAddress),
            repo.giftCredits(user.id),
            repo.indexedBlock(chainId)
          ],
          { concurrency: "unbounded" }
        )
        let received = 0n,
          withdrawn = 0n,
          withdrawable = 0n,
          locked = 0n
        const tokens = rows.map((row) => {
          const pending = BigInt(row.received) - BigInt(row.withdrawn)
          received += BigInt(row.received)
          withdrawn += BigInt(row.withdrawn)
          if (row.graduated) locked += pending
          else withdrawable += pending
          return new TokenFuelBalance({
            token: getAddress(row.token),
            tokenSymbol: row.symbol,
            received: row.received,
            withdrawn: row.withdrawn,
            pending: pending.toString(),
            graduated: row.graduated
          })
        })
        return new FuelCredits({
          walletAddress: user.walletAddress,
          balance: (withdrawable + BigInt(gifts)).toString(),
          withdrawable: withdrawable.toString(),
          locked: locked.toString(),
          received: received.toString(),
          withdrawn: withdrawn.toString(),
          giftCredits: gifts,
          tokens,
          indexedBlock: Option.getOrNull(block)
        })
      })

      return FuelLedger.of({ page, credits, counts: (wallet) => repo.counts(chainId, wallet) })
    })
  )
}
