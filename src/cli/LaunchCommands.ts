import { Effect } from "effect"
import * as NodeFs from "node:fs"
import { type Hex, parseEventLogs } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { FireLaunchAbi } from "../../contracts/generated/index.ts"
import { readDeploymentsSync } from "../../layers/Deployments.ts"
import { makeSender } from "../../scripts/devnet/tx.ts"
import { clientApi, signClaim } from "../sdk/index.ts"
import type { Targets } from "./Commands.ts"
import { readSession } from "./SessionFile.ts"

/** `launch` and `claim`: the wallet signs and sends, the API records. Progress goes to stderr, one line a step. */

const progress = (line: string) => Effect.sync(() => process.stderr.write(`${line}\n`))

const signedInApi = (targets: Targets) =>
  Effect.gen(function* () {
    const session = readSession()
    if (session === undefined)
      return yield* Effect.fail(new Error("not signed in: run `fire-api login --key 0x...` first"))
    return yield* clientApi(targets.clientUrl, { token: session.token })
  })

const keyAccount = (key: string | undefined) => {
  if (key === undefined || !/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new Error("--key takes the wallet's private key (0x + 64 hex digits)")
  return privateKeyToAccount(key as Hex)
}

const imageForm = (path: string) => {
  const bytes = NodeFs.readFileSync(path)
  const form = new FormData()
  form.append("file", new Blob([bytes]), path.split("/").pop() ?? "image")
  return form
}

export interface LaunchArgs {
  readonly key: string | undefined
  readonly rpcUrl: string
  readonly deployments: string
  readonly name: string
  readonly symbol: string
  readonly category: string
  readonly description: string | undefined
  readonly image: string
}

/** Draft → image → `FireLaunch.ignite()` from the wallet → submit. */
export const launch = (targets: Targets, args: LaunchArgs) =>
  Effect.gen(function* () {
    const account = yield* Effect.try({ try: () => keyAccount(args.key), catch: (e) => e as Error })
    const deployments = yield* Effect.try({
      try: () => readDeploymentsSync(args.deployments),
      catch: (e) => new Error(`cannot read the deployments file ${args.deployments}: ${(e as Error).message}`)
    })
    const launchpad = deployments.launchpad
    if (launchpad === undefined) {
      return yield* Effect.fail(
        new Error(
          `the deployments file ${args.deployments} has no launchpad: deploy it first (npm run deploy:launchpad)`
        )
      )
    }
    const api = yield* signedInApi(targets)
    yield* progress(`→ draft ${args.name} (${args.symbol})`)
    const draft = yield* api.launches.createLaunch({
      payload: {
        name: args.name,
        symbol: args.symbol,
        category: args.category as any,
        chainId: deployments.chainId,
        ...(args.description !== undefined ? { description: args.description } : {})
      }
    })
    yield* progress(`→ image ${args.image}`)
    yield* api.launches.uploadLaunchImage({ params: { id: draft.id }, payload: imageForm(args.image) as any })
    yield* progress(`→ FireLaunch.ignite on chain ${deployments.chainId}`)
    // One transaction, gas padded, receipt polled (viem's waitForTransactionReceipt can hang on automine: scripts/devnet/tx.ts).
    const sender = makeSender(deployments.chainId, args.rpcUrl)
    const receipt = yield* Effect.tryPromise({
      try: () => sender.write(account, launchpad.fireLaunch, FireLaunchAbi, "ignite", [args.name, args.symbol]),
      catch: (e) => new Error(`FireLaunch.ignite failed: ${(e as Error).message}`)
    })
    const [ignited] = parseEventLogs({ abi: FireLaunchAbi, logs: receipt.logs, eventName: "Ignited" })
    if (receipt.status !== "success" || ignited === undefined)
      return yield* Effect.fail(new Error(`ignite failed: ${receipt.transactionHash}`))
    const token = ignited.args.token
    yield* progress(`→ submit ${token}`)
    const done = yield* api.launches.submitLaunch({ params: { id: draft.id }, payload: { tokenAddress: token } })
    yield* progress(`✓ launch ${done.id} ${done.status}: token ${token} (tx ${receipt.transactionHash})`)
  })

/** Claim typed data from the API → EIP-712 signature by the creator's key → claim (→ image). */
export const claim = (targets: Targets, args: { key: string | undefined; token: string; image: string | undefined }) =>
  Effect.gen(function* () {
    const account = yield* Effect.try({ try: () => keyAccount(args.key), catch: (e) => e as Error })
    const api = yield* signedInApi(targets)
    yield* progress(`→ claim typed data for ${args.token}`)
    const typedData = yield* api.claims.getClaimTypedData({
      params: { mintAddress: args.token as any },
      query: { wallet: account.address } as any
    })
    yield* progress("→ signing (EIP-712)")
    const payload = yield* Effect.promise(() => signClaim(account, typedData as any))
    const record = yield* api.claims.claimToken({ params: { mintAddress: args.token as any }, payload: payload as any })
    if (args.image !== undefined) {
      yield* progress(`→ image ${args.image}`)
      yield* api.claims.uploadClaimImage({
        params: { mintAddress: args.token as any },
        payload: imageForm(args.image) as any
      })
    }
    yield* progress(`✓ claimed ${args.token}: ${JSON.stringify(record)}`)
  })
