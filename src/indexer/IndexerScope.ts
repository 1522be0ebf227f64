import { Config, ConfigProvider } from "effect"
import type { Address } from "viem"
import type { IndexerSource, TrackedPools } from "./IndexerSource.ts"

/**
 * What the indexer tracks besides the launchpad's pools: the base tokens (routing connectors), the stablecoins with
 * their peg, and the pools tracked from the start block. From the deployments file (`stablecoins`, `indexing`), each
 * part replaced by its environment variable when that is set:
 *
 * - `INDEXER_BASE_TOKENS`: addresses, comma-separated (besides WETH and the stablecoins);
 * - `INDEXER_STABLECOINS`: `address` or `address:peg` (USD per token), comma-separated;
 * - `INDEXER_POOLS`: pool addresses, comma-separated;
 * - `INDEXER_POOLS_AMONG_BASE_TOKENS`: true to track every pool among the base tokens (factory getPool);
 * - `INDEXER_FEE_TIERS`: the fee tiers that search looks at (default 100,500,3000,10000).
 *
 * An empty variable counts as unset (the file's part applies).
 */
export interface IndexerScope {
  readonly baseTokens: ReadonlyArray<Address>
  readonly stablecoins: ReadonlyArray<{ readonly address: Address; readonly pegUsd: number }>
  readonly trackedPools: TrackedPools
}

/** The part of a deployments record the scope is read from (src/platform/Deployments.ts). */
export interface ScopeDefaults {
  readonly stablecoins?: ReadonlyArray<{ readonly address: string; readonly pegUsd?: number | undefined }> | undefined
  readonly indexing?:
    | {
        readonly baseTokens?: ReadonlyArray<string> | undefined
        readonly pools?: ReadonlyArray<string> | undefined
        readonly poolsAmongBaseTokens?: boolean | undefined
        readonly feeTiers?: ReadonlyArray<number> | undefined
      }
    | undefined
}

export const DEFAULT_FEE_TIERS: ReadonlyArray<number> = [100, 500, 3000, 10000]

const fail = (message: string) => Config.fail(new ConfigProvider.SourceError({ message }))

const isAddress = (s: string): s is Address => /^0x[0-9a-fA-F]{40}$/.test(s)

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

/** A comma-separated list of env `name`, each item parsed; absent → `fallback`. */
const listConfig = <A>(
  name: string,
  parse: (item: string) => A | undefined,
  what: string,
  fallback: ReadonlyArray<A>
): Config.Config<ReadonlyArray<A>> =>
  Config.option(Config.String(name)).pipe(
    Config.flatMap((text) => {
      if (text._tag === "None") return Config.succeed(fallback)
      const items = list(text.value)
      const parsed = items.map(parse)
      const bad = items.find((_, i) => parsed[i] === undefined)
      return bad === undefined
        ? Config.succeed(parsed as ReadonlyArray<A>)
        : fail(`${name}: ${JSON.stringify(bad)} is not ${what}`)
    })
  )

const parseStablecoin = (item: string) => {
  const [address, peg] = item.split(":")
  const pegUsd = peg === undefined ? 1 : Number(peg)
  return address !== undefined && isAddress(address) && Number.isFinite(pegUsd) && pegUsd > 0
    ? { address, pegUsd }
    : undefined
}

export const indexerScopeConfig = (defaults: ScopeDefaults): Config.Config<IndexerScope> => {
  const indexing = defaults.indexing ?? {}
  const address = (s: string) => (isAddress(s) ? s : undefined)
  return Config.all({
    baseTokens: listConfig("INDEXER_BASE_TOKENS", address, "an address", (indexing.baseTokens ?? []) as Array<Address>),
    stablecoins: listConfig(
      "INDEXER_STABLECOINS",
      parseStablecoin,
      "an address or address:peg",
      (defaults.stablecoins ?? []).map((s) => ({ address: s.address as Address, pegUsd: s.pegUsd ?? 1 }))
    ),
    addresses: listConfig("INDEXER_POOLS", address, "an address", (indexing.pools ?? []) as Array<Address>),
    amongBaseTokens: Config.Boolean("INDEXER_POOLS_AMONG_BASE_TOKENS").pipe(
      Config.withDefault(indexing.poolsAmongBaseTokens ?? false)
    ),
    feeTiers: listConfig(
      "INDEXER_FEE_TIERS",
      (s) => (/^[1-9][0-9]*$/.test(s) ? Number(s) : undefined),
      "a fee tier (a positive integer, hundredths of a basis point)",
      indexing.feeTiers ?? DEFAULT_FEE_TIERS
    )
  }).pipe(
    Config.map(({ baseTokens, stablecoins, addresses, amongBaseTokens, feeTiers }) => ({
      baseTokens,
      stablecoins,
      trackedPools: { addresses, amongBaseTokens, feeTiers }
    }))
  )
}

/** The source with its scope applied. */
export const withScope = (source: IndexerSource["Service"], scope: IndexerScope): IndexerSource["Service"] => ({
  ...source,
  baseTokens: [...source.baseTokens, ...scope.baseTokens],
  stablecoins: scope.stablecoins,
  trackedPools: scope.trackedPools
})
