import { createWalletClient, type Hex, http, serializeErc6492Signature } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import { DEVNET_PRIVATE_KEYS } from "../../layers/Anvil.ts"
import { devnetChain, makePublicClient } from "../../layers/PublicClient.ts"
import { receiptOf } from "../devnet/tx.ts"
import type { Attack, Target } from "./Attack.ts"
import { type Answer, attackerIp, countOf, ms, pool, randomIpv4, send, tally } from "./Caller.ts"

/** Issue 23 M1, M3, M4 and L4 (in part): the sign-in routes, what one caller can make them do. */

const nonceOf = async (target: Target, ip: string, address: string) =>
  (await send(`${target.client}/v1/session/wallet/nonce?address=${address}`, { ip })).body.nonce as string

const siwe = (target: Target, address: `0x${string}`, nonce: string) =>
  createSiweMessage({
    domain: "localhost",
    address,
    uri: "http://localhost",
    version: "1",
    chainId: target.chainId,
    nonce,
    issuedAt: new Date()
  })

const verify = (target: Target, ip: string, message: string, signature: string) =>
  send(`${target.client}/v1/session/wallet/verify`, { ip, body: { message, signature } })

const newAccount = () => privateKeyToAccount(generatePrivateKey())

/** 150 nonce requests as `ip` (the proxy's entry), with what the caller forges to its left. */
const nonceFlood = (target: Target, ip: () => string, forged?: () => string) =>
  pool(150, 8, () =>
    send(`${target.client}/v1/session/wallet/nonce?address=${newAccount().address}`, {
      ip: ip(),
      ...(forged === undefined ? {} : { forged: forged() })
    })
  )

const limited = (answers: ReadonlyArray<Answer>) => ({
  answered: tally(answers),
  refused: countOf(answers, 429) > 0,
  effect: `${countOf(answers, 200)} answered 200 (nonce rows written)`
})

const hex16 = () => Math.floor(Math.random() * 65536).toString(16)

/** A contract whose code is an endless loop (JUMPDEST PUSH1 0 JUMP): any call burns all the gas it is given. */
const GAS_BURNER_INITCODE: Hex = "0x635b6000566000526004601cf3"

export const signInAttacks: ReadonlyArray<Attack> = [
  {
    finding: "M1",
    name: "X-Forwarded-For rotation (TRUST_PROXY): 150 nonce GETs, a new forged left-most IP each",
    expected:
      "429 past SIGNIN_IP_RATE_BURST (20 at once) / SIGNIN_IP_RATE_LIMIT (120/min): the caller is the proxy's entry",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      return limited(await nonceFlood(target, () => ip, randomIpv4))
    }
  },
  {
    finding: "M1",
    name: "IPv6 rotation within one /64: 150 nonce GETs, a new interface id each",
    expected: "429 past SIGNIN_IP_RATE_BURST / SIGNIN_IP_RATE_LIMIT (IPv6 keyed by /64)",
    required: true,
    run: async (target) =>
      limited(await nonceFlood(target, () => `2001:db8:23:1:${hex16()}:${hex16()}:${hex16()}:${hex16()}`))
  },
  {
    finding: "M3",
    name: "one nonce, 6 wrong signatures, then the right one",
    expected: "401 INVALID_NONCE after SIWE_NONCE_MAX_FAILURES (3)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const [account, impostor] = [newAccount(), newAccount()]
      const message = siwe(target, account.address, await nonceOf(target, ip, account.address))
      const forged = await impostor.signMessage({ message })
      const answers: Array<Answer> = []
      for (let i = 0; i < 6; i++) answers.push(await verify(target, ip, message, forged))
      const right = await verify(target, ip, message, await account.signMessage({ message }))
      return {
        answered: `${tally(answers)}; the right signature: ${tally([right])}`,
        refused: right.status === 401 && right.code === "INVALID_NONCE",
        effect: `${answers.filter((a) => a.code === "INVALID_SIGNATURE").length} signatures checked for one nonce`
      }
    }
  },
  {
    finding: "M3",
    name: "one address, 12 fresh nonces, a wrong signature each",
    expected: "429 past SIGNIN_ADDRESS_RATE_LIMIT (10/min)",
    required: true,
    run: async (target) => {
      const [account, impostor] = [newAccount(), newAccount()]
      const answers: Array<Answer> = []
      for (let i = 0; i < 12; i++) {
        // Each try from another address, so that the per-address limit is the one met (not the IP's burst).
        const ip = attackerIp()
        const message = siwe(target, account.address, await nonceOf(target, ip, account.address))
        answers.push(await verify(target, ip, message, await impostor.signMessage({ message })))
      }
      return {
        answered: tally(answers),
        refused: countOf(answers, 429) > 0,
        effect: `${answers.filter((a) => a.code === "INVALID_SIGNATURE").length} signatures checked`
      }
    }
  },
  {
    finding: "M3",
    name: "ERC-6492 wrapper whose factory burns all gas, 3 verifies",
    expected: "401 INVALID_SIGNATURE with the verification eth_call capped (SIGNATURE_VERIFY_GAS 2M)",
    required: true,
    run: async (target) => {
      const chain = devnetChain(target.chainId, target.rpcUrl)
      const deployer = privateKeyToAccount(DEVNET_PRIVATE_KEYS[9]!)
      const wallet = createWalletClient({ account: deployer, chain, transport: http(target.rpcUrl) })
      const publicClient = makePublicClient(target.chainId, target.rpcUrl)
      const hash = await wallet.sendTransaction({ data: GAS_BURNER_INITCODE, gas: 100_000n })
      const factory = (await receiptOf(publicClient, hash)).contractAddress!
      // What one such call costs the node without a cap of ours: it runs until the node's own gas cap.
      const t0 = performance.now()
      await publicClient
        .request({ method: "eth_call", params: [{ to: factory, data: "0xdeadbeef" }, "latest"] })
        .catch(() => undefined)
      const uncapped = performance.now() - t0
      const ip = attackerIp()
      const answers = await pool(3, 1, async () => {
        const wallet = newAccount().address // a counterfactual smart wallet: no code at this address
        const message = siwe(target, wallet, await nonceOf(target, ip, wallet))
        const signature = serializeErc6492Signature({
          address: factory,
          data: "0xdeadbeef",
          signature: `0x${"11".repeat(65)}`
        })
        return verify(target, ip, message, signature)
      })
      return {
        answered: tally(answers),
        refused: answers.every((a) => a.status === 401),
        effect: `verify ${answers.map((a) => ms(a.ms)).join(", ")}; one uncapped eth_call of the factory: ${ms(uncapped)}`
      }
    }
  },
  {
    finding: "M3",
    name: "8 KB signature",
    expected: "400 INVALID_BODY (signatures ≤ 2,048 bytes)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const account = newAccount()
      const message = siwe(target, account.address, await nonceOf(target, ip, account.address))
      const answer = await verify(target, ip, message, `0x${"ab".repeat(8192)}`)
      return {
        answered: tally([answer]),
        refused: answer.code === "INVALID_BODY",
        effect: `answered in ${ms(answer.ms)}`
      }
    }
  },
  {
    finding: "M4",
    name: "two-line SIWE message (`<address>\\nNonce: <n>`, no domain line), FIRE_ENV=production",
    expected: "401, no session",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const account = newAccount()
      const message = `${account.address}\nNonce: ${await nonceOf(target, ip, account.address)}`
      const answer = await verify(target, ip, message, await account.signMessage({ message }))
      return {
        answered: tally([answer]),
        refused: answer.status >= 400 && answer.status < 500,
        effect: answer.status === 200 ? "a session was issued" : "no session"
      }
    }
  },
  {
    finding: "L4",
    name: "nonce GET flood: 150 from one IP (a row each)",
    expected: "429 past SIGNIN_IP_RATE_BURST (20 at once) / SIGNIN_IP_RATE_LIMIT (120/min)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      return limited(await nonceFlood(target, () => ip))
    }
  },
  {
    finding: "L4",
    name: "anonymous wallet-state POST flood: 150 from one IP (a row each)",
    expected: "429 past SIGNIN_IP_RATE_BURST / SIGNIN_IP_RATE_LIMIT (shared with the nonces)",
    required: true,
    run: async (target) => {
      const ip = attackerIp()
      const answers = await pool(150, 8, () =>
        send(`${target.client}/v1/session/wallet-state`, { ip, body: { status: "connected" } })
      )
      return { ...limited(answers), effect: `${countOf(answers, 200)} rows written` }
    }
  }
]
