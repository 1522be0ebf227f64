/** Stage 1 of the devnet: the Uniswap v3 stack, deployed from npm artifacts. */
import { type Address, type Hex, type LocalAccount, stringToHex, zeroAddress, zeroHash } from "viem"
import { artifacts, poolInitCodeHash, positionDescriptorArtifact } from "./artifacts.ts"
import type { Sender } from "./tx.ts"

export interface UniswapContracts {
  readonly weth9: Address
  readonly factory: Address
  readonly positionDescriptor: Address
  readonly positionManager: Address
  readonly swapRouter02: Address
  readonly quoterV2: Address
  readonly tickLens: Address
  readonly multicall3: Address
  readonly permit2: Address
  readonly universalRouter: Address
  readonly poolInitCodeHash: Hex
}

export const deployUniswap = async (
  sender: Sender,
  deployer: LocalAccount,
  log: (line: string) => void
): Promise<UniswapContracts> => {
  const step = async (name: string, deploy: () => Promise<Address>) => {
    const address = await deploy()
    log(`  ${name.padEnd(34)} ${address}`)
    return address
  }
  const deploy =
    (artifact: Parameters<Sender["deploy"]>[1], args: ReadonlyArray<unknown> = []) =>
    () =>
      sender.deploy(deployer, artifact, args)

  const weth9 = await step("WETH9", deploy(artifacts.weth9()))
  const factory = await step("UniswapV3Factory", deploy(artifacts.factory()))
  const nftDescriptor = await step("NFTDescriptor (library)", deploy(artifacts.nftDescriptorLibrary()))
  const positionDescriptor = await step(
    "NonfungibleTokenPositionDescriptor",
    deploy(positionDescriptorArtifact(nftDescriptor), [weth9, stringToHex("ETH", { size: 32 })])
  )
  const positionManager = await step(
    "NonfungiblePositionManager",
    deploy(artifacts.positionManager(), [factory, weth9, positionDescriptor])
  )
  const swapRouter02 = await step(
    "SwapRouter02",
    deploy(artifacts.swapRouter02(), [zeroAddress, factory, positionManager, weth9]) // no v2 factory
  )
  const quoterV2 = await step("QuoterV2", deploy(artifacts.quoterV2(), [factory, weth9]))
  const tickLens = await step("TickLens", deploy(artifacts.tickLens()))
  const multicall3 = await step("Multicall3", deploy({ abi: [], bytecode: artifacts.multicall3Bytecode() }))
  const permit2 = await step("Permit2", deploy({ abi: [], bytecode: artifacts.permit2Bytecode() }))
  const hash = poolInitCodeHash()
  const universalRouter = await step(
    "UniversalRouter 2.1.0",
    deploy(artifacts.universalRouter(), [
      {
        permit2,
        weth9,
        v2Factory: zeroAddress,
        v3Factory: factory,
        pairInitCodeHash: zeroHash,
        poolInitCodeHash: hash,
        v4PoolManager: zeroAddress,
        v3NFTPositionManager: positionManager,
        v4PositionManager: zeroAddress,
        spokePool: zeroAddress
      }
    ])
  )
  return {
    weth9,
    factory,
    positionDescriptor,
    positionManager,
    swapRouter02,
    quoterV2,
    tickLens,
    multicall3,
    permit2,
    universalRouter,
    poolInitCodeHash: hash
  }
}
