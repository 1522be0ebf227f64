import { idOf } from "../Ids.ts"
import type { TokenRow } from "./TokensRepo.ts"

/** Human units of a raw amount (for USD products; precision of a double is enough there). */
export const toUnits = (raw: string, decimals: number) => Number(raw) / 10 ** decimals

/** Claim state from the client API's token listings (null: that feature's tables are not in this database). */
export interface ClaimState {
  readonly claimed: boolean
  readonly hidden: boolean
}

export const fireMeta = (t: TokenRow, chainId: number, claim: ClaimState | null) => {
  const fuelBalance = BigInt(t.fuelGiven) - BigInt(t.fuelWithdrawn)
  return {
    tokenId: idOf(t.address, chainId),
    address: t.address,
    isLaunch: t.isLaunch,
    creator: t.creator,
    launchTx: t.launchTx,
    launchedAt: t.launchedAt?.toISOString() ?? null,
    launchBlock: t.launchBlock,
    pool: t.launchPool === null ? null : idOf(t.launchPool, chainId),
    claimed: claim?.claimed ?? null,
    hidden: claim?.hidden ?? null,
    graduation: {
      state: !t.isLaunch
        ? ("none" as const)
        : t.graduatedAt !== null
          ? ("graduated" as const)
          : t.graduationConditionAt !== null
            ? ("condition_recorded" as const)
            : ("launched" as const),
      conditionRecordedAt: t.graduationConditionAt?.toISOString() ?? null,
      graduatedAt: t.graduatedAt?.toISOString() ?? null
    },
    fuel: { count: t.fuelCount, given: t.fuelGiven, withdrawn: t.fuelWithdrawn, balance: fuelBalance.toString() }
  }
}

export const tokenOverview = (t: TokenRow, chainId: number, claim: ClaimState | null) => {
  const circulating = BigInt(t.totalSupply) - BigInt(t.lockedSupply)
  const circulatingSupply = circulating < 0n ? 0n : circulating
  // A token of unknown decimals has no USD values (its amounts have no scale).
  const price = t.decimals === null ? null : t.priceUsd
  const decimals = t.decimals ?? 0
  return {
    tokenId: idOf(t.address, chainId),
    address: t.address,
    chainId,
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    totalSupply: t.totalSupply,
    priceUsd: price,
    priceEth: t.priceEth,
    tvlUsd: price === null ? null : toUnits(t.pooledAmount, decimals) * price,
    volume24hUsd: t.volume24hUsd,
    swaps24h: t.swaps24h,
    marketCapUsd: price === null ? null : toUnits(circulatingSupply.toString(), decimals) * price,
    fdvUsd: price === null ? null : toUnits(t.totalSupply, decimals) * price,
    circulatingSupply: circulatingSupply.toString(),
    holderCount: t.holderCount,
    transferCount: t.transferCount,
    poolCount: t.poolCount,
    launchpad: t.isLaunch ? fireMeta(t, chainId, claim) : null
  }
}
