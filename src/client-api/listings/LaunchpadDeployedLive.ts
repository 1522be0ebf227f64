import { Effect, Layer } from "effect"
import { Chain } from "../../platform/Chain.ts"
import { LaunchpadDeployed, launchpadNotDeployed } from "./LaunchpadDeployed.ts"

/** LaunchpadDeployed from the process's chain: passes when its deployments record has a launchpad. */
export const LaunchpadDeployedLive = Layer.effect(
  LaunchpadDeployed,
  Effect.gen(function* () {
    const chain = yield* Chain
    return LaunchpadDeployed.of((effect) =>
      chain.deployments.launchpad === undefined ? Effect.fail(launchpadNotDeployed(chain.chainId)) : effect
    )
  })
)
