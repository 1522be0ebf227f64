import { addressOf, type Corpus, type CorpusPool, type CorpusToken } from "./search-corpus.ts"

const SYLLABLES = [
  "pe",
  "pe",
  "po",
  "pa",
  "mo",
  "mu",
  "ka",
  "ki",
  "do",
  "ge",
  "sh",
  "ib",
  "fl",
  "ok",
  "ca",
  "tz",
  "fr",
  "og",
  "in",
  "u",
  "ba",
  "by",
  "ro",
  "ck",
  "et",
  "zo",
  "la",
  "ne",
  "ti",
  "va",
  "ra",
  "sa",
  "to",
  "ma",
  "ri",
  "lo",
  "xe",
  "qu",
  "yo",
  "wi"
]
const WORDS = [
  "Coin",
  "Token",
  "Inu",
  "Moon",
  "Cat",
  "Dog",
  "AI",
  "Finance",
  "Protocol",
  "Gold",
  "Classic",
  "2.0",
  "Swap",
  "Meme",
  "Labs"
]

/** A deterministic generator (the same corpus every run). */
export const rng = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
  return seed / 2_147_483_648
}

/**
 * `tokens` launch tokens with pronounceable names from a small syllable set (so that prefixes and near names collide
 * as they do among meme tokens), the first `pools` of them with a pool against WETH whose TVL is log-uniform from $10
 * to $10 M. Two base tokens (WETH, USDT).
 */
export const generateCorpus = (tokens: number, pools: number, seed = 42): Corpus => {
  const random = rng(seed)
  const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(random() * xs.length)]!
  const weth = addressOf(1, 1)
  const out: Array<CorpusToken> = [
    {
      chainId: 31337,
      address: weth,
      symbol: "WETH",
      name: "Wrapped Ether",
      isLaunch: false,
      priceUsd: 3000,
      holders: 0,
      graduated: false,
      launchedAt: 0,
      creator: weth,
      pool: null
    },
    {
      chainId: 31337,
      address: addressOf(1, 2),
      symbol: "USDT",
      name: "Tether USD",
      isLaunch: false,
      priceUsd: 1,
      holders: 0,
      graduated: false,
      launchedAt: 0,
      creator: weth,
      pool: null
    }
  ]
  const poolRows: Array<CorpusPool> = []
  for (let i = 1; i <= tokens; i++) {
    const stem = Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join("")
    const name = `${stem[0]!.toUpperCase()}${stem.slice(1)}${random() < 0.6 ? ` ${pick(WORDS)}` : ""}`
    const symbol =
      stem.toUpperCase().slice(0, 3 + Math.floor(random() * 4)) +
      (random() < 0.1 ? String(Math.floor(random() * 100)) : "")
    const address = addressOf(2, i)
    const hasPool = i <= pools
    const pool = hasPool ? addressOf(3, i) : null
    out.push({
      chainId: 31337,
      address,
      symbol,
      name,
      isLaunch: true,
      priceUsd: random() * 0.01,
      holders: Math.floor(random() * 5_000),
      graduated: random() < 0.05,
      launchedAt: 1_750_000_000 + i,
      creator: addressOf(9, i % 5_000),
      pool
    })
    if (pool !== null) {
      poolRows.push({
        chainId: 31337,
        address: pool,
        token0: weth,
        token1: address,
        fee: 10_000,
        tvlUsd: 10 ** (1 + random() * 6),
        createdAt: 1_750_000_000 + i
      })
    }
  }
  return { tokens: out, pools: poolRows, checkpoints: [{ chainId: 31337, block: 1, time: 1_750_000_000 + tokens + 1 }] }
}

/**
 * The query mix of the benchmark, drawn from the corpus: 1–2 character prefixes, 3–6 character prefixes of names
 * and symbols, whole words with one typo, two-word queries, and exact addresses.
 */
export const generateQueries = (corpus: Corpus, n: number, seed = 7): Array<string> => {
  const random = rng(seed)
  const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(random() * xs.length)]!
  const launched = corpus.tokens.filter((t) => t.isLaunch)
  const typo = (w: string) => {
    const at = 1 + Math.floor(random() * (w.length - 1))
    return w.slice(0, at) + "xq"[Math.floor(random() * 2)] + w.slice(at + 1)
  }
  const out: Array<string> = []
  for (let i = 0; i < n; i++) {
    const t = pick(launched)
    const word = t.name.split(" ")[0]!.toLowerCase()
    const r = random()
    if (r < 0.1) out.push(word.slice(0, 1))
    else if (r < 0.25) out.push(word.slice(0, 2))
    else if (r < 0.55) out.push(word.slice(0, 3 + Math.floor(random() * 4)))
    else if (r < 0.65) out.push(t.symbol.toLowerCase().slice(0, 3 + Math.floor(random() * 3)))
    else if (r < 0.85) out.push(word.length >= 4 ? typo(word) : word)
    else if (r < 0.92) out.push(t.name.toLowerCase().split(" ").slice(0, 2).join(" "))
    else out.push(t.address)
  }
  return out
}
