import { createClient } from "graphql-ws"
import WebSocket from "ws"
import type { Attack, Target } from "./Attack.ts"
import { type Answer, attackerIp, countOf, ms, pool, send, tally } from "./Caller.ts"

/** Issue 23 H1: one unauthenticated caller against the indexer's GraphQL (`POST /v1/graphql` and graphql-ws). */

const gql = (target: Target, ip: string, query: string) => send(`${target.indexer}/v1/graphql`, { ip, body: { query } })

const all400 = (answers: ReadonlyArray<Answer>) => answers.every((a) => a.status === 400 || a.status === 413)
const slowest = (answers: ReadonlyArray<Answer>) => ms(Math.max(...answers.map((a) => a.ms)))

/** A raw WebSocket as `ip`: resolves open (101) or the status that refused the upgrade. */
const openSocket = (url: string, ip: string) =>
  new Promise<{ ws: WebSocket; status: number }>((resolve) => {
    const ws = new WebSocket(url, "graphql-transport-ws", { headers: { "x-forwarded-for": ip } })
    // connection_init at once, as a client would: the server closes a socket without it after 3 s, freeing its slot.
    ws.once("open", () => {
      ws.send(JSON.stringify({ type: "connection_init" }))
      resolve({ ws, status: 101 })
    })
    ws.once("unexpected-response", (_req, res) => resolve({ ws, status: res.statusCode ?? 0 }))
    ws.once("error", () => resolve({ ws, status: 0 }))
  })

const wsUrl = (target: Target) => `${target.indexer.replace(/^http/, "ws")}/v1/graphql`

export const graphqlAttacks: ReadonlyArray<Attack> = [
  {
    finding: "H1",
    name: "GraphQL `first` as a variable default: 11 lists of $n=1000, and the issue's 199",
    expected: "400 QUERY_TOO_COSTLY (11 lists) / QUERY_TOO_LARGE (199: over MAX_TOKENS)",
    required: true,
    run: async (target) => {
      const lists = (n: number) =>
        Array.from({ length: n }, (_, i) => `a${i}: swaps(first: $n) { items { txHash } }`).join(" ")
      const answers = [
        await gql(target, attackerIp(), `query($n: Int = 1000) { ${lists(11)} }`),
        await gql(target, attackerIp(), `query($n: Int = 1000) { ${lists(199)} }`)
      ]
      const bytes = answers.map((a) => JSON.stringify(a.body).length)
      return {
        answered: tally(answers),
        refused: all400(answers),
        effect: `answers of ${bytes.join(" and ")} bytes (was 200 with 370 KB), slowest ${slowest(answers)}`
      }
    }
  },
  {
    finding: "H1",
    name: "1,900 aliased `txHash_contains` scans in one POST, ×10",
    expected: "400 QUERY_TOO_LARGE (~38,000 tokens: refused while parsing, at MAX_TOKENS)",
    required: true,
    run: async (target) => {
      const query = `{${Array.from(
        { length: 1_900 },
        (_, i) => `s${i}:swaps(first:1,where:{txHash_contains:"zz"}){items{txHash}}`
      ).join(" ")}}`
      const ip = attackerIp()
      const answers = await pool(10, 2, () => gql(target, ip, query))
      return {
        answered: tally(answers),
        refused: all400(answers),
        effect: `${(query.length / 1024).toFixed(0)} KiB each, slowest answer ${slowest(answers)}`
      }
    }
  },
  {
    finding: "H1",
    name: "fields without a selection set: 40 aliased `_meta.skippedLaunches` (a count(*) each)",
    expected: "400 TOO_MANY_ALIASES",
    required: true,
    run: async (target) => {
      const leaves = Array.from({ length: 40 }, (_, i) => `k${i}: skippedLaunches`).join(" ")
      const answer = await gql(target, attackerIp(), `{ _meta { ${leaves} } }`)
      return { answered: tally([answer]), refused: all400([answer]), effect: `answered in ${ms(answer.ms)}` }
    }
  },
  {
    finding: "H1",
    name: "GraphQL request flood: 400 POSTs from one IP, 8 in flight",
    expected: "429 RATE_LIMITED past GRAPHQL_RATE_BURST (50 at once) / GRAPHQL_RATE_LIMIT (300/min)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const t0 = performance.now()
      const answers = await pool(400, 8, () => gql(target, ip, "{ _meta { ready lastIndexedBlock } }"))
      return {
        answered: tally(answers),
        refused: countOf(answers, 429) > 0,
        effect: `${countOf(answers, 200)} queries ran, in ${ms(performance.now() - t0)}`
      }
    }
  },
  {
    finding: "H1",
    name: "graphql-ws socket flood: 30 sockets from one IP",
    expected: "429 at the upgrade past GRAPHQL_WS_MAX_SOCKETS_PER_IP (10)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const sockets = []
      for (let i = 0; i < 30; i++) sockets.push(await openSocket(wsUrl(target), ip))
      const held = sockets.filter((s) => s.ws.readyState === WebSocket.OPEN).length
      for (const s of sockets) s.ws.terminate()
      return {
        answered: tally(sockets),
        refused: held <= 10 && countOf(sockets, 429) > 0,
        effect: `${held} sockets open at the end`
      }
    }
  },
  {
    finding: "H1",
    name: "graphql-ws subscription flood: 30 subscriptions on one socket",
    expected: "TOO_MANY_SUBSCRIPTIONS past GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET (20)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const client = createClient({
        url: wsUrl(target),
        retryAttempts: 0,
        webSocketImpl: class extends WebSocket {
          constructor(address: string, protocols?: string | Array<string>) {
            super(address, protocols, { headers: { "x-forwarded-for": ip } })
          }
        }
      })
      const refusals: Array<string> = []
      const disposers = Array.from({ length: 30 }, (_, i) =>
        client.subscribe(
          { query: `subscription { swaps(pool: "0x${String(i).padStart(40, "0")}") { txHash } }` },
          {
            next: (value) => refusals.push(String((value as any).errors?.[0]?.extensions?.code ?? "event")),
            error: (error) => refusals.push(String((error as any)?.[0]?.extensions?.code ?? error)),
            complete: () => {}
          }
        )
      )
      const deadline = Date.now() + 10_000
      while (refusals.length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      for (const dispose of disposers) dispose()
      await client.dispose()
      const tooMany = refusals.filter((r) => r === "TOO_MANY_SUBSCRIPTIONS").length
      return {
        answered: `${30 - refusals.length} running; ${refusals.length} refused: ${[...new Set(refusals)].join(", ")}`,
        refused: tooMany === 10,
        effect: `${30 - tooMany} subscriptions held`
      }
    }
  }
]
