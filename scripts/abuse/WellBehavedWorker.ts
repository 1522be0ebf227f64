import { parentPort, workerData } from "node:worker_threads"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import type { Sample, WellBehavedConfig } from "./WellBehaved.ts"

/**
 * The well-behaved load of `bench:abuse`, in a worker thread so that the attacks' work on the bench's main thread
 * (building queries, signing) does not delay its requests or its clocks. Open loop at fixed rates: token reads
 * (`GET /api/v1/tokens/{id}`) and wallet sign-ins (nonce, sign, verify), each user from an address of its own.
 * On "stop" it waits for the requests in flight and posts every sample.
 */
const config = workerData as WellBehavedConfig
const samples: Array<Sample> = []
let inFlight = 0
let dropped = 0
let nextUser = 1
const userIp = () => {
  const n = nextUser++
  return `198.18.${(n >> 8) & 255}.${n & 255}`
}

const timed = async (kind: Sample["kind"], run: () => Promise<{ status: number; ms: number }>) => {
  const at = Date.now()
  inFlight++
  try {
    const { status, ms } = await run()
    samples.push({ kind, at, ms, status })
  } catch {
    samples.push({ kind, at, ms: 0, status: 0 })
  } finally {
    inFlight--
  }
}

const get = async (url: string, ip: string, init: RequestInit = {}) => {
  const t0 = performance.now()
  const response = await fetch(url, {
    ...init,
    headers: { "x-forwarded-for": ip, ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  return { status: response.status, ms: performance.now() - t0, text }
}

const readToken = () => {
  const id = config.tokenIds[Math.floor(Math.random() * config.tokenIds.length)]!
  return get(`${config.exchange}/api/v1/tokens/${id}`, userIp())
}

/** A sign-in's latency is its two requests' (nonce and verify), not the local signing between them. */
const signIn = async () => {
  const account = privateKeyToAccount(generatePrivateKey())
  const ip = userIp()
  const nonce = await get(`${config.client}/v1/session/wallet/nonce?address=${account.address}`, ip)
  if (nonce.status !== 200) return nonce
  const message = createSiweMessage({
    domain: "localhost",
    address: account.address,
    uri: "http://localhost",
    version: "1",
    chainId: config.chainId,
    nonce: (JSON.parse(nonce.text) as { nonce: string }).nonce,
    issuedAt: new Date()
  })
  const signature = await account.signMessage({ message })
  const verified = await get(`${config.client}/v1/session/wallet/verify`, ip, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, signature })
  })
  return { status: verified.status, ms: nonce.ms + verified.ms }
}

const started = performance.now()
const sent = { token: 0, signin: 0 }
const tick = setInterval(() => {
  const elapsed = (performance.now() - started) / 1000
  for (const [kind, rate, run] of [
    ["token", config.tokensPerSecond, readToken],
    ["signin", config.signInsPerSecond, signIn]
  ] as const) {
    const due = Math.floor(elapsed * rate) - sent[kind]
    for (let i = 0; i < due; i++) {
      sent[kind]++
      if (inFlight >= config.maxInFlight) dropped++
      else void timed(kind, run)
    }
  }
}, 5)

parentPort!.on("message", async (message) => {
  if (message !== "stop") return
  clearInterval(tick)
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20))
  parentPort!.postMessage({ samples, dropped })
})
