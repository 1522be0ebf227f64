import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import type { Attack, Target } from "./Attack.ts"
import { type Answer, attackerIp, countOf, pool, send, tally } from "./Caller.ts"

/** Issue 23 M2, L2 and L3: the exchange's quote routes without a partner key, and what a signed-in user can make. */

interface Member {
  readonly token: string
  readonly headers: Record<string, string>
}

/** Signs a fresh wallet in as `ip`; `username` is set on its profile when given. */
const member = async (target: Target, ip: string, username?: string): Promise<Member> => {
  const account = privateKeyToAccount(generatePrivateKey())
  const nonce = await send(`${target.client}/v1/session/wallet/nonce?address=${account.address}`, { ip })
  const message = createSiweMessage({
    domain: "localhost",
    address: account.address,
    uri: "http://localhost",
    version: "1",
    chainId: target.chainId,
    nonce: nonce.body.nonce,
    issuedAt: new Date()
  })
  const signedIn = await send(`${target.client}/v1/session/wallet/verify`, {
    ip,
    body: { message, signature: await account.signMessage({ message }) }
  })
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`)
  const headers = { authorization: `Bearer ${signedIn.body.token}` }
  if (username !== undefined) {
    const named = await send(`${target.client}/v1/users/profile`, { ip, method: "PATCH", headers, body: { username } })
    if (named.status !== 200) throw new Error(`username: ${named.status} ${JSON.stringify(named.body)}`)
  }
  return { token: signedIn.body.token, headers }
}

const mentionsOf = async (target: Target, ip: string, who: Member) => {
  const answer = await send(`${target.client}/v1/notifications?limit=100`, { ip, headers: who.headers })
  return (answer.body.items as Array<{ kind: string }>).filter((n) => n.kind === "COMMENT_MENTION").length
}

export const clientAttacks: ReadonlyArray<Attack> = [
  {
    finding: "M2",
    name: "quotes with no active partner key (QUOTE_OPEN=false): 20 GET /api/v1/quote, 10 POST /api/v1/quote/open",
    expected: "401 INVALID_API_KEY (fail closed)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const query =
        `chainId=${target.chainId}&tokenInAddress=${target.weth}&tokenOutAddress=${target.tokens[0]}` +
        `&amount=${10n ** 16n}&type=exactIn&recipient=0x70997970c51812dc3a010c7d01b50e0d17dc79c8`
      const answers: Array<Answer> = [
        ...(await pool(20, 4, () => send(`${target.exchange}/api/v1/quote?${query}`, { ip }))),
        ...(await pool(10, 4, () =>
          send(`${target.exchange}/api/v1/quote/open`, {
            ip,
            body: {
              chainId: target.chainId,
              tokenInAddress: target.weth,
              tokenOutAddress: target.tokens[0],
              amount: String(10n ** 16n),
              type: "exactIn",
              recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
            }
          })
        ))
      ]
      return {
        answered: tally(answers),
        refused: answers.every((a) => a.status === 401),
        effect: `${countOf(answers, 200)} quotes computed`
      }
    }
  },
  {
    finding: "L4",
    name: "client API read flood: 1,250 GET /v1/tokens/{token} from one IP, 8 in flight",
    expected: "429 past RATE_LIMIT_CLIENT_IP_BURST (200 at once) / RATE_LIMIT_CLIENT_IP_LIMIT (1,200/min)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const t0 = performance.now()
      const answers = await pool(1_250, 8, (i) =>
        send(`${target.client}/v1/tokens/${target.tokens[i % target.tokens.length]}`, { ip })
      )
      return {
        answered: tally(answers),
        refused: countOf(answers, 429) > 0,
        effect: `${countOf(answers, 200)} token pages read, in ${(performance.now() - t0).toFixed(0)} ms`
      }
    }
  },
  {
    finding: "L2",
    name: "comment edit loop: a comment edited 14 times, each naming another of 15 users",
    expected: "429 past COMMENT_EDIT_RATE_LIMIT (10/min); ≤ COMMENT_MENTION_LIFETIME_CAP (10) users notified",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const suffix = Math.random().toString(36).slice(2, 8)
      // Users of their own addresses: 16 sign-ins from one would pass its sign-in burst (SIGNIN_IP_RATE_BURST).
      const users = await pool(15, 3, (i) => member(target, attackerIp(), `ab${i}_${suffix}`))
      const author = await member(target, ip)
      const post = await send(`${target.client}/v1/comments`, {
        ip,
        headers: author.headers,
        body: { token: target.tokens[0], text: `gm @ab0_${suffix}` }
      })
      if (post.status !== 201) throw new Error(`comment: ${post.status} ${JSON.stringify(post.body)}`)
      const edits: Array<Answer> = []
      for (let i = 1; i < 15; i++) {
        edits.push(
          await send(`${target.client}/v1/comments/${post.body.id}`, {
            ip,
            method: "PUT",
            headers: author.headers,
            body: { text: `gm @ab${i}_${suffix}` }
          })
        )
      }
      const notified = (await pool(15, 3, (i) => mentionsOf(target, ip, users[i]!))).filter((n) => n > 0).length
      return {
        answered: `edits: ${tally(edits)}`,
        refused: countOf(edits, 429) > 0 && notified <= 10,
        effect: `${notified} of 15 named users notified`
      }
    }
  },
  {
    finding: "L3",
    name: "cross-site POST /v1/comments with the session cookie, no content type / text/plain",
    expected: "403 CROSS_SITE_REQUEST / 415 UNSUPPORTED_MEDIA_TYPE",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const victim = await member(target, ip)
      const crossSite = {
        // COOKIE_SECURE (production's default) names it __Host-fire_session.
        cookie: `__Host-fire_session=${victim.token}`,
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site"
      }
      const body = JSON.stringify({ token: target.tokens[0], text: "posted by another site" })
      const bare = await send(`${target.client}/v1/comments`, {
        ip,
        headers: crossSite,
        body: new TextEncoder().encode(body)
      })
      const plain = await send(`${target.client}/v1/comments`, {
        ip,
        headers: { ...crossSite, "content-type": "text/plain;charset=UTF-8" },
        body
      })
      const answers = [bare, plain]
      return {
        answered: `no content type: ${tally([bare])}; text/plain: ${tally([plain])}`,
        refused: answers.every((a) => a.status >= 400 && a.status < 500),
        effect: `${countOf(answers, 201)} comments posted in the victim's name`
      }
    }
  }
]
