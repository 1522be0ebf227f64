import { ConfigProvider, Context, Effect, Layer, Schedule } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import sharp from "sharp"
import { type Address, type LocalAccount, maxUint256, parseEther, parseEventLogs } from "viem"
import { FireLaunchAbi } from "../../contracts/generated/index.ts"
import { erc20Abi, swapRouter02Abi } from "../../scripts/devnet/abis.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { TestServices } from "../support/TestServer.ts"
import { bearer, client, postJson } from "../support/http.ts"
import { TEST_JWT_SECRET, tokenFor } from "../sessions/support.ts"

/**
 * Test plumbing for the listing features: the client AND indexer services over a fresh database and a fresh anvil
 * restored from the seeded devnet (so launches made by a test are indexed like production ones), an admin wallet
 * through ADMIN_WALLETS, and the on-chain moves a creator makes with viem (fund, ignite, swap).
 */

class TempDataDir extends Context.Service<TempDataDir, string>()("test/listings/TempDataDir") {}
const TempDataDirLive = Layer.effect(
  TempDataDir,
  Effect.acquireRelease(
    Effect.sync(() => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "fire-listings-"))),
    (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
  )
)

export const ListingsServer = (adminWallet: Address, env: Record<string, string> = {}) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const dataDir = yield* TempDataDir
      return TestServices(["client", "indexer"], { dataDir }).pipe(
        Layer.provide(
          ConfigProvider.layer(
            ConfigProvider.fromEnvRecord({
              JWT_SECRET: TEST_JWT_SECRET,
              ADMIN_WALLETS: adminWallet,
              INDEXER_POLL_MS: "50",
              ...env
            })
          )
        )
      )
    })
  ).pipe(Layer.provide(TempDataDirLive))

export { bearer, client, postJson, tokenFor }

export const authed = (token: string, method: string, path: string, body?: unknown) =>
  client(path, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** Gives `address` 10 ETH from anvil's first account. */
export const fund = (address: Address) =>
  AnvilChain.use((chain) =>
    Effect.promise(() => chain.sender.send(chain.accounts[0]!, { to: address, value: parseEther("10") }))
  )

/** The creator's wallet calls FireLaunch.ignite (viem); returns the Ignited event's token and pool. */
export const ignite = (creator: LocalAccount, name: string, symbol: string) =>
  AnvilChain.use((chain) =>
    Effect.promise(async () => {
      const receipt = await chain.sender.write(
        creator,
        chain.deployments.launchpad!.fireLaunch,
        FireLaunchAbi,
        "ignite",
        [name, symbol]
      )
      const [event] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
      if (event === undefined) throw new Error("no Ignited event")
      return { token: event.args.token, pool: event.args.pool, fee: event.args.fee, block: receipt.blockNumber }
    })
  )

/** Buys `eth` worth of `token` through SwapRouter02 exactInputSingle with the buyer as recipient. */
export const buy = (who: LocalAccount, token: Address, fee: number, eth: string) =>
  AnvilChain.use((chain) =>
    Effect.promise(() =>
      chain.sender.write(
        who,
        chain.deployments.contracts.swapRouter02,
        swapRouter02Abi,
        "exactInputSingle",
        [
          {
            tokenIn: chain.deployments.contracts.weth9,
            tokenOut: token,
            fee,
            recipient: who.address,
            amountIn: parseEther(eth),
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n
          }
        ],
        parseEther(eth)
      )
    )
  )

/** Sells `amount` of `token` for WETH (recipient = seller) through SwapRouter02. */
export const sell = (who: LocalAccount, token: Address, fee: number, amount: bigint) =>
  AnvilChain.use((chain) =>
    Effect.promise(async () => {
      const router = chain.deployments.contracts.swapRouter02
      await chain.sender.write(who, token, erc20Abi, "approve", [router, maxUint256])
      return chain.sender.write(who, router, swapRouter02Abi, "exactInputSingle", [
        {
          tokenIn: token,
          tokenOut: chain.deployments.contracts.weth9,
          fee,
          recipient: who.address,
          amountIn: amount,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n
        }
      ])
    })
  )

/** Polls GET /v1/tokens/{token} until the indexer has it (bounded; a poll, not a sleep). */
export const indexed = (token: Address, until: (body: any) => boolean = () => true) =>
  client(`/v1/tokens/${token}`).pipe(
    Effect.repeat({ until: (res) => res.status === 200 && until(res.body), schedule: Schedule.spaced("100 millis") }),
    Effect.timeout("60 seconds")
  )

/** A noisy PNG (does not compress to nothing). */
export const picture = Effect.promise(() => {
  const width = 64
  const height = 64
  const raw = Buffer.alloc(width * height * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) % 251
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
})

export const uploadTo = (token: string, path: string, bytes: Uint8Array | undefined, field = "file") => {
  const form = new FormData()
  if (bytes !== undefined) form.append(field, new Blob([bytes], { type: "image/png" }), "image.png")
  return client(path, { method: "POST", body: form, headers: bearer(token) })
}
