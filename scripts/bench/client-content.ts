import { type LocalAccount, generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"

/**
 * Content for `bench:client` (scripts/bench-client.ts), written through the client API as users would: wallets sign
 * in with SIWE (as scripts/bench/auth-load.ts does), fill in their profiles (username, display name, bio) and post a
 * token's thread (comments, replies, `@username` mentions, likes), so the measured reads answer real bodies: a full
 * first page of comments with their authors, and a filled-in public profile.
 */

export interface Writer {
  readonly account: LocalAccount
  readonly headers: Record<string, string>
  readonly username: string
}

const WALLETS = 6
/** Comments per wallet: 24 in all, more than the first page's 20, under COMMENT_RATE_LIMIT's 10 a minute each. */
const COMMENTS_EACH = 4

const LINES = [
  "Bought a bag on the first candle, holding through the noise.",
  "Liquidity looks thin for now; waiting for the pool to fill before adding more.",
  "Anyone else see the volume spike an hour ago? Chart looks like a staircase.",
  "gm. Team answered every question in the chat, that is more than most launches.",
  "Not financial advice, but the holder count has doubled since yesterday.",
  "Swapped some ETH in at 0.3% slippage, went through in one block.",
  "What is the plan for the treasury once the curve completes?",
  "Diamond hands only. See you all at the next milestone 🚀",
  "Fees are low enough on this chain that small buys make sense, finally.",
  "Price held above the launch level all week, buyers keep stepping in.",
  "Is there a roadmap posted anywhere? Would love to read it before adding.",
  "This thread is more fun than the token itself, and the token is fun."
]

const json = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, init)
  const body = (await response.json()) as any
  if (response.status >= 300)
    throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${JSON.stringify(body)}`)
  return body
}

const send = (url: string, method: string, body: unknown, headers: Record<string, string>) =>
  json(url, { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) })

/** Signs a fresh wallet in (nonce, SIWE message, verify) and returns its Bearer headers. */
const signIn = async (base: string, account: LocalAccount) => {
  const { nonce } = await json(`${base}/v1/session/wallet/nonce?address=${account.address}`)
  const message = createSiweMessage({
    domain: "localhost",
    address: account.address,
    statement: "Sign in to Fire",
    uri: "http://localhost",
    version: "1",
    chainId: 31337,
    nonce,
    issuedAt: new Date()
  })
  const signature = await account.signMessage({ message })
  const { token } = await send(`${base}/v1/session/wallet/verify`, "POST", { message, signature }, {})
  return { authorization: `Bearer ${token}` }
}

/**
 * Signs in WALLETS wallets, fills their profiles and writes 24 comments on `token` (every third a reply, every fourth
 * with a mention), with likes. Returns the writers (the first is the profile to measure) and the comment count.
 */
export const writeClientContent = async (base: string, token: string) => {
  const writers: Array<Writer> = []
  for (let i = 0; i < WALLETS; i++) {
    const account = privateKeyToAccount(generatePrivateKey())
    const headers = await signIn(base, account)
    const username = `bench_${account.address.slice(2, 10).toLowerCase()}`
    await send(
      `${base}/v1/users/profile`,
      "PATCH",
      {
        username,
        name: `Bench trader ${i + 1}`,
        bio:
          "Early on every launch on this chain, mostly small bags held for weeks. Posting charts, questions and the " +
          "odd meme. Not financial advice; read the contracts before you buy."
      },
      headers
    )
    writers.push({ account, headers, username })
  }
  const ids: Array<number> = []
  for (let n = 0; n < WALLETS * COMMENTS_EACH; n++) {
    const writer = writers[n % WALLETS]!
    const mention = n % 4 === 3 ? ` @${writers[(n + 1) % WALLETS]!.username}` : ""
    const reply = n % 3 === 2 && ids.length > 0 ? { replyTo: ids[ids.length - 2] ?? ids[0]! } : {}
    const text = `${LINES[n % LINES.length]!}${mention}`
    const comment = await send(`${base}/v1/comments`, "POST", { token, text, ...reply }, writer.headers)
    ids.push(comment.id as number)
  }
  for (const [w, writer] of writers.entries())
    for (const id of ids.filter((_, k) => (k + w) % 3 === 0))
      await json(`${base}/v1/likes/comments/${id}`, { method: "POST", headers: writer.headers })
  return { writers, comments: ids.length }
}
