import { redactedErrorText } from "../../platform/RedactUrl.ts"
import { Context, Effect, Layer, Option } from "effect"
import { type Address, getAddress, zeroAddress } from "viem"
import { FireLaunchAbi, FireTokenAbi } from "../../../contracts/generated/index.ts"
import { Chain } from "../../platform/Chain.ts"
import type { ServiceUnavailable } from "../../platform/ApiError.ts"
import { launchpadNotDeployed } from "./LaunchpadDeployed.ts"
import { chainUnavailable } from "./Listing.ts"

/** A token launched through FireLaunch, as the chain says now. */
export interface OnChainLaunch {
  readonly chainId: number
  readonly token: Address
  /** `FireLaunch.creatorOf`: the account that called `ignite` (EOA or contract wallet), checksummed. */
  readonly creator: Address
  /** Launched with the registry's canonical configuration (only those are listed and indexed). */
  readonly canonical: boolean
  readonly name: string
  readonly symbol: string
}

/**
 * Reads launches from the chain itself rather than from the index: claims and submits happen right after an ignite,
 * before the indexer may have caught up, and the creator check must use the chain's own answer.
 */
export class LaunchpadReader extends Context.Service<
  LaunchpadReader,
  {
    readonly chainId: number
    /** Undefined on a chain without the launchpad (the launch and claim routes answer 503 there). */
    readonly fireLaunch: Address | undefined
    /** None when FireLaunch never launched `token`; 503 LAUNCHPAD_NOT_DEPLOYED without the launchpad. */
    readonly launchOf: (token: Address) => Effect.Effect<Option.Option<OnChainLaunch>, ServiceUnavailable>
  }
>()("app/listings/LaunchpadReader") {
  static readonly layer = Layer.effect(
    LaunchpadReader,
    Effect.gen(function* () {
      const chain = yield* Chain
      const client = chain.publicClient
      const launchpad = chain.deployments.launchpad
      const fireLaunch = launchpad === undefined ? undefined : getAddress(launchpad.fireLaunch)
      const read = <A>(what: string, f: () => Promise<A>) =>
        Effect.tryPromise({ try: f, catch: (cause) => cause }).pipe(
          Effect.tapError((cause) => Effect.logWarning(`chain read failed: ${what}: ${redactedErrorText(cause)}`)),
          Effect.mapError(chainUnavailable)
        )

      const launchOf = Effect.fn("LaunchpadReader.launchOf")(function* (token: Address) {
        if (fireLaunch === undefined) return yield* launchpadNotDeployed(chain.chainId)
        const launch = yield* read("FireLaunch.launchOf", () =>
          client.readContract({ address: fireLaunch, abi: FireLaunchAbi, functionName: "launchOf", args: [token] })
        )
        if (launch.creator === zeroAddress) return Option.none<OnChainLaunch>()
        const [name, symbol] = yield* read("ERC-20 name/symbol", () =>
          Promise.all([
            client.readContract({ address: token, abi: FireTokenAbi, functionName: "name" }),
            client.readContract({ address: token, abi: FireTokenAbi, functionName: "symbol" })
          ])
        )
        return Option.some<OnChainLaunch>({
          chainId: chain.chainId,
          token: getAddress(token),
          creator: getAddress(launch.creator),
          canonical: launch.canonical,
          name,
          symbol
        })
      })

      return LaunchpadReader.of({ chainId: chain.chainId, fireLaunch, launchOf })
    })
  )
}
