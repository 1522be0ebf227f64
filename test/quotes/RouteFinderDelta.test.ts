import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { QuoteConfig } from "../../src/exchange-api/quotes/QuoteConfig.ts"
import { RouteFinder } from "../../src/exchange-api/quotes/RouteFinder.ts"
import { generatedConfig, generateUniverse } from "../../workers/routing/testing/generatePools.ts"

/**
 * The pool state the quote engine keeps between full loads (src/exchange-api/quotes/RouteFinder.ts `apply`): a delta brings the
 * tokens of its pools, so a token launched after start-up (its first pool arrives in a delta, not in the full load)
 * is known with its symbol and decimals — route strings and /quote/tokens name it.
 */
const universe = generateUniverse(5, 40)
const [kept, ...rest] = universe.snapshot.pools
const later = rest[0]!
const laterTokens = new Set([later.token0, later.token1])
// The full load as it was at start-up: without the later pool and without the tokens only it holds.
const atStart = {
  ...universe.snapshot,
  pools: universe.snapshot.pools.filter((p) => p.address !== later.address),
  tokens: universe.snapshot.tokens.filter(
    (t) => !laterTokens.has(t.address) || [kept!.token0, kept!.token1].includes(t.address)
  )
}

layer(RouteFinder.layerInline.pipe(Layer.provideMerge(QuoteConfig.layerWith({ workers: 0 }))), {
  excludeTestServices: true
})("route finder pool state", (it) => {
  it.effect("a delta adds its pools' tokens (with symbol and decimals) to the state and keeps the known ones", () =>
    Effect.gen(function* () {
      const finder = yield* RouteFinder
      yield* finder.load(atStart, generatedConfig())
      const known = () => new Map((finder.current()?.tokens ?? []).map((t) => [t.address, t]))
      const missing = [...laterTokens].filter((a) => !known().has(a))
      assert.isAbove(missing.length, 0, "the later pool brings a token the start-up load did not have")
      const tokens = universe.snapshot.tokens.filter((t) => laterTokens.has(t.address))
      yield* finder.apply({
        chainId: atStart.chainId,
        blockNumber: atStart.blockNumber + 1n,
        pools: [later],
        removed: [],
        tokens
      })
      for (const address of laterTokens)
        assert.deepStrictEqual(
          known().get(address),
          tokens.find((t) => t.address === address)
        )
      assert.strictEqual(finder.current()?.pools.length, universe.snapshot.pools.length)
      // Tokens already known stay (a delta only adds or updates).
      assert.strictEqual(known().size, new Set([...atStart.tokens.map((t) => t.address), ...laterTokens]).size)
    })
  )
})
