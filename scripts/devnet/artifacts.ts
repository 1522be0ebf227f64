/**
 * Creation code of the Uniswap v3 stack, read at runtime from npm packages (nothing recompiled, nothing copied into
 * the repo): WETH9, v3-core, v3-periphery, swap-router-contracts, universal-router 2.1.0, Permit2 (embedded in the
 * typechain factory of universal-router 1.6.0) and Multicall3 (a constant inside viem).
 */
import * as NodeFs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { type Abi, type Hex, keccak256 } from "viem"

const require = createRequire(import.meta.url)

export interface Artifact {
  readonly abi: Abi
  readonly bytecode: Hex
}

interface HardhatArtifact extends Artifact {
  readonly linkReferences?: Record<string, Record<string, ReadonlyArray<{ start: number; length: number }>>>
}

const readJson = (specifier: string): HardhatArtifact =>
  JSON.parse(NodeFs.readFileSync(require.resolve(specifier), "utf8"))

const cache = new Map<string, unknown>()
const cached = <A>(key: string, load: () => A): A => {
  if (!cache.has(key)) cache.set(key, load())
  return cache.get(key) as A
}

const hardhat = (specifier: string) => (): Artifact =>
  cached(specifier, () => {
    const { abi, bytecode } = readJson(specifier)
    return { abi, bytecode }
  })

/**
 * Writes library addresses into unlinked creation code at the byte offsets of the artifact's `linkReferences`
 * (each placeholder is 20 bytes, i.e. 40 hex characters after the `0x`).
 */
export const linkBytecode = (artifact: HardhatArtifact, libraries: Readonly<Record<string, Hex>>): Hex => {
  let code = artifact.bytecode.slice(2)
  for (const [, byName] of Object.entries(artifact.linkReferences ?? {})) {
    for (const [name, references] of Object.entries(byName)) {
      const address = libraries[name]
      if (address === undefined) throw new Error(`no address for library ${name}`)
      for (const { start, length } of references) {
        if (length !== 20) throw new Error(`unexpected link length ${length} for ${name}`)
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2)
      }
    }
  }
  if (code.includes("__")) throw new Error("creation code still has unlinked placeholders")
  return `0x${code}`
}

/** The token descriptor of the position NFTs, with NFTDescriptor linked at `library`. */
export const positionDescriptorArtifact = (library: Hex): Artifact => {
  const artifact = readJson(
    "@uniswap/v3-periphery/artifacts/contracts/NonfungibleTokenPositionDescriptor.sol/NonfungibleTokenPositionDescriptor.json"
  )
  return { abi: artifact.abi, bytecode: linkBytecode(artifact, { NFTDescriptor: library }) }
}

/** Reads `const <name> = "0x..."` out of a source file of a package (bytecode kept in .ts/.js sources). */
const hexConstant = (file: string, name: string): Hex => {
  const text = NodeFs.readFileSync(file, "utf8")
  const m = new RegExp(`(?:const|let|var)\\s+${name}\\s*=\\s*["'](0x[0-9a-fA-F]+)["']`).exec(text)
  if (m?.[1] === undefined) throw new Error(`${name} not found in ${file}`)
  return m[1] as Hex
}

const packageDir = (name: string) => NodePath.dirname(require.resolve(`${name}/package.json`))

export const artifacts = {
  weth9: hardhat("canonical-weth/build/contracts/WETH9.json"),
  factory: hardhat("@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"),
  pool: hardhat("@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json"),
  nftDescriptorLibrary: hardhat(
    "@uniswap/v3-periphery/artifacts/contracts/libraries/NFTDescriptor.sol/NFTDescriptor.json"
  ),
  positionManager: hardhat(
    "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json"
  ),
  tickLens: hardhat("@uniswap/v3-periphery/artifacts/contracts/lens/TickLens.sol/TickLens.json"),
  swapRouter02: hardhat("@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json"),
  quoterV2: hardhat("@uniswap/swap-router-contracts/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json"),
  universalRouter: hardhat("@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json"),
  /** Permit2 as built for universal-router 1.6.0 (not byte-identical to the canonical deployment). */
  permit2Bytecode: (): Hex =>
    cached("permit2", () =>
      hexConstant(
        NodePath.join(packageDir("@uniswap/universal-router-v1"), "typechain/factories/Permit2__factory.ts"),
        "_bytecode"
      )
    ),
  /** Multicall3 creation code: viem keeps it (unexported) for deployless multicalls. */
  multicall3Bytecode: (): Hex =>
    cached("multicall3", () =>
      hexConstant(NodePath.join(packageDir("viem"), "_esm/constants/contracts.js"), "multicall3Bytecode")
    )
}

/**
 * keccak256 of the UniswapV3Pool creation code the factory deploys (CREATE2 init code): it decides every pool
 * address. The npm v3-core 1.0.1 artifact gives the canonical 0xe34f…8b54.
 */
export const poolInitCodeHash = (): Hex => keccak256(artifacts.pool().bytecode)
