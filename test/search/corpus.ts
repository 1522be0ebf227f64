import { addressOf, type Corpus, type CorpusPool, type CorpusToken } from "../../scripts/bench/search-corpus.ts"

/**
 * The relevance corpus: names chosen so that each rule has a case that passes only if the rule holds (near names,
 * copies with and without liquidity, numbers, a second chain), and liquidity set per pool.
 */
const CHAIN = 31337
const BASE = 8453
const T0 = 1_750_000_000

let n = 0
const tokens: Array<CorpusToken> = []
const pools: Array<CorpusPool> = []
export const WETH = addressOf(1, 1)
export const USDT = addressOf(1, 2)
const base = (address: string, symbol: string, name: string): CorpusToken => ({
  chainId: CHAIN,
  address,
  symbol,
  name,
  isLaunch: false,
  priceUsd: 1,
  holders: 0,
  graduated: false,
  launchedAt: T0,
  creator: addressOf(9, 0),
  pool: null
})
tokens.push(base(WETH, "WETH", "Wrapped Ether"), base(USDT, "USDT", "Tether USD"))

/** A launch with its pool against WETH holding `tvl` USD. */
const launch = (symbol: string, name: string, tvl: number, extra: Partial<CorpusToken> = {}) => {
  n++
  const chainId = extra.chainId ?? CHAIN
  const address = addressOf(2, n)
  const pool = addressOf(3, n)
  tokens.push({
    chainId,
    address,
    symbol,
    name,
    isLaunch: true,
    priceUsd: 0.001,
    holders: n,
    graduated: false,
    launchedAt: T0 + n,
    creator: addressOf(9, n),
    pool,
    ...extra
  })
  const [token0, token1] = address < WETH ? [address, WETH] : [WETH, address]
  pools.push({ chainId, address: pool, token0, token1, fee: 10_000, tvlUsd: tvl, createdAt: T0 + n })
  return { address, pool }
}

export const PEPE = launch("PEPE", "Pepe", 5_000_000)
export const PEPECOIN = launch("PEPECOIN", "PepeCoin", 1_000_000)
export const PEPPE = launch("PEPPE", "Peppe the Frog", 20_000)
export const PEP = launch("PEP", "Pep Token", 100)
export const MOON = launch("MOON", "Moon Rocket", 300_000)
export const MOONBAG = launch("MOONBAG", "Moon Bag", 2_000_000)
export const MOONCAT = launch("MOONCAT", "Moon Cat", 10_000)
export const T2024 = launch("T2024", "Token 2024", 5_000)
export const EMBER = launch("EMBR", "Ember", 50_000, { graduated: true })
export const EMBERS = launch("EMBRS", "Embers", 60_000)
export const BASE_PEPE = launch("PEPE", "Pepe on Base", 100, { chainId: BASE })
/** A second PEPE pool (against USDT), less liquid than PEPE/WETH. */
export const PEPE_USDT = addressOf(3, 999)
pools.push({
  chainId: CHAIN,
  address: PEPE_USDT,
  token0: PEPE.address < USDT ? PEPE.address : USDT,
  token1: PEPE.address < USDT ? USDT : PEPE.address,
  fee: 3_000,
  tvlUsd: 1_500_000,
  createdAt: T0
})
/** 45 tokens named Alpha N with liquidity N × 1,000: pagination and liquidity order. */
export const ALPHAS = Array.from({ length: 45 }, (_, i) => launch(`ALPHA${i + 1}`, `Alpha ${i + 1}`, (i + 1) * 1_000))

export const corpus: Corpus = {
  tokens,
  pools,
  checkpoints: [
    { chainId: CHAIN, block: 10, time: T0 + 1_000 },
    { chainId: BASE, block: 10, time: T0 + 1_000 }
  ]
}
