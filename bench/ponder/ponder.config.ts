/**
 * Ponder baseline for `npm run bench:indexer`: the same anvil, the same pools (Swap) and tokens (Transfer) as our
 * indexer, from the deployment's start block to the bench's head. Everything comes from PONDER_BENCH (JSON) set by
 * scripts/bench-indexer.ts; the database is DATABASE_URL (the bench's embedded PostgreSQL, schema via --schema).
 */
import { createConfig } from "ponder"
import { http, parseAbi } from "viem"

const bench = JSON.parse(process.env.PONDER_BENCH ?? "{}") as {
  rpcUrl: string
  startBlock: number
  endBlock: number
  pools: Array<`0x${string}`>
  tokens: Array<`0x${string}`>
  /** Set in the bench's hosted-plan mode: the plan's limit (scripts/bench/hosted-plan.ts). */
  maxRequestsPerSecond?: number
}

export const poolAbi = parseAbi([
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)"
])
export const erc20Abi = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"])

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL!, poolConfig: { max: 30 } },
  networks: {
    // No RPC cache (it would be cold anyway: a fresh ponder_sync schema); no request throttle below anvil's pace;
    // no cap on a response's size (viem 2.57 refuses bodies over 10 MB by default, and 200 blocks of this history's
    // logs are 12 MB: Ponder then gives up after 10 retries instead of shrinking its range).
    anvil: {
      chainId: 31337,
      transport: http(bench.rpcUrl, { maxResponseBodySize: false }),
      disableCache: true,
      // Locally no throttle below anvil's pace; through the hosted-plan proxy, the plan's limit, as Ponder's docs say
      // to set it for a rate-limited provider (its request queue then starts at most this many requests a second).
      maxRequestsPerSecond: bench.maxRequestsPerSecond ?? 10_000
    }
  },
  contracts: {
    Pool: {
      network: "anvil",
      abi: poolAbi,
      address: bench.pools,
      startBlock: bench.startBlock,
      endBlock: bench.endBlock
    },
    Token: {
      network: "anvil",
      abi: erc20Abi,
      address: bench.tokens,
      startBlock: bench.startBlock,
      endBlock: bench.endBlock
    }
  }
})
