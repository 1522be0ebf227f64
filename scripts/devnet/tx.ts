/**
 * Sending transactions to anvil the way that works: one at a time, gas estimate + 30 % (viem's estimate
 * has no margin; swaps that write a new oracle slot ran out of gas), and receipts polled with
 * eth_getTransactionReceipt (viem's waitForTransactionReceipt occasionally hangs against automine).
 */
import {
  type Abi,
  type Address,
  BaseError,
  type Chain,
  type ContractFunctionArgs,
  type ContractFunctionName,
  encodeFunctionData,
  type EncodeFunctionDataParameters,
  getAddress,
  createWalletClient,
  decodeErrorResult,
  encodeDeployData,
  type Hash,
  type Hex,
  http,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { DEVNET_PRIVATE_KEYS } from "../../layers/Anvil.ts"
import { devnetChain, makePublicClient } from "../../layers/PublicClient.ts"
import type { Artifact } from "./artifacts.ts"

/** anvil's funded accounts as viem local accounts (public test keys). */
export const devnetAccounts = (): ReadonlyArray<LocalAccount> =>
  DEVNET_PRIVATE_KEYS.map((key) => privateKeyToAccount(key))

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls eth_getTransactionReceipt until the receipt exists (2 ms at first, backing off to 50 ms). */
export const receiptOf = async (client: PublicClient, hash: Hash, timeoutMs = 60_000): Promise<TransactionReceipt> => {
  const deadline = Date.now() + timeoutMs
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined)
    if (receipt !== undefined) return receipt
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash} after ${timeoutMs} ms`)
    await sleep(wait)
  }
}

/** The custom error of a failed call or estimate, decoded with `abi` when its data is there. */
export const describeRevert = (error: unknown, abi?: Abi): string => {
  if (error instanceof BaseError && abi !== undefined) {
    const withData = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as { data?: Hex } | null
    if (withData?.data !== undefined && withData.data.length >= 10) {
      try {
        const decoded = decodeErrorResult({ abi, data: withData.data })
        return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(", ")})`
      } catch {
        // not an error of this ABI
      }
    }
  }
  return error instanceof BaseError ? error.shortMessage : String(error)
}

export interface TxRequest {
  readonly to?: Address
  readonly data?: Hex
  readonly value?: bigint
  /** Used to decode a custom-error revert in the thrown message. */
  readonly abi?: Abi
}

type WriteName<abi extends Abi> = ContractFunctionName<abi, "nonpayable" | "payable">

export interface Sender {
  readonly rpcUrl: string
  readonly chain: Chain
  readonly publicClient: PublicClient
  /** Sends one transaction from `from`, waits for its receipt and requires success. */
  readonly send: (from: LocalAccount, tx: TxRequest) => Promise<TransactionReceipt>
  readonly deploy: (from: LocalAccount, artifact: Artifact, args?: ReadonlyArray<unknown>) => Promise<Address>
  /** Calls a state-changing contract function (typed by the ABI); a revert is reported with its custom error. */
  readonly write: <const abi extends Abi, name extends WriteName<abi>>(
    from: LocalAccount,
    address: Address,
    abi: abi,
    functionName: name,
    args: ContractFunctionArgs<abi, "nonpayable" | "payable", name>,
    value?: bigint
  ) => Promise<TransactionReceipt>
}

export const makeSender = (chainId: number, rpcUrl: string): Sender => {
  const chain = devnetChain(chainId, rpcUrl)
  const publicClient = makePublicClient(chainId, rpcUrl)
  const wallet = createWalletClient({ chain, transport: http(rpcUrl, { retryCount: 0 }) })
  const send = async (from: LocalAccount, tx: TxRequest): Promise<TransactionReceipt> => {
    const base = {
      account: from,
      ...(tx.to === undefined ? {} : { to: tx.to }),
      ...(tx.data === undefined ? {} : { data: tx.data }),
      ...(tx.value === undefined ? {} : { value: tx.value })
    }
    const estimate = await publicClient.estimateGas(base).catch((error: unknown) => {
      throw new Error(`transaction to ${tx.to ?? "(create)"} would revert: ${describeRevert(error, tx.abi)}`, {
        cause: error
      })
    })
    const hash = await wallet.sendTransaction({ ...base, chain, gas: (estimate * 13n) / 10n })
    const receipt = await receiptOf(publicClient, hash)
    if (receipt.status !== "success") throw new Error(`transaction ${hash} to ${tx.to ?? "(create)"} reverted`)
    return receipt
  }
  const deploy = async (from: LocalAccount, artifact: Artifact, args: ReadonlyArray<unknown> = []) => {
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: args as Array<unknown> })
    const receipt = await send(from, { data, abi: artifact.abi })
    if (!receipt.contractAddress) throw new Error("deployment receipt without a contract address")
    return getAddress(receipt.contractAddress)
  }
  const write: Sender["write"] = (from, address, abi, functionName, args, value) =>
    send(from, {
      to: address,
      abi,
      data: encodeFunctionData({ abi, functionName, args } as EncodeFunctionDataParameters),
      ...(value === undefined ? {} : { value })
    })
  return { rpcUrl, chain, publicClient, send, deploy, write }
}
