import { HttpApiMiddleware } from "effect/http-api"
import { ServiceUnavailable } from "../../platform/ApiError.ts"

/**
 * On the launch and claim routes: a chain whose deployments record has no launchpad (only the DEX data layer is
 * served there) answers 503 LAUNCHPAD_NOT_DEPLOYED before anything else, authentication included.
 */
export class LaunchpadDeployed extends HttpApiMiddleware.Service<LaunchpadDeployed>()(
  "app/listings/LaunchpadDeployed",
  { error: ServiceUnavailable }
) {}

export const launchpadNotDeployed = (chainId: number) =>
  new ServiceUnavailable({
    code: "LAUNCHPAD_NOT_DEPLOYED",
    message:
      `The launchpad is not deployed on chain ${chainId} (its deployments file has no \`launchpad\` part): ` +
      "launches and claims are unavailable here; pools, tokens and quotes are served",
    details: { chainId }
  })
