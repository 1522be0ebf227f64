import { assert, describe, it } from "@effect/vitest"
import { TermDictionary } from "../../src/search/text/TermDictionary.ts"
import { asAddress, terms, typoBudget } from "../../src/search/text/Terms.ts"

/** Plain dynamic-programming Levenshtein distance: the reference the dictionary walk must agree with. */
const levenshtein = (a: string, b: string): number => {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}
const prefixDistance = (word: string, term: string) => {
  let best = Infinity
  for (let n = 0; n <= term.length; n++) best = Math.min(best, levenshtein(word, term.slice(0, n)))
  return best
}

// A deterministic generator (no Math.random: a failure must be reproducible).
const rng = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
  return seed / 2_147_483_648
}

describe("TermDictionary", () => {
  it("typo lookups equal a brute-force Levenshtein scan (prefix and whole-term, budgets 1 and 2)", () => {
    const random = rng(7)
    const alphabet = "pepsoandgk"
    const word = (n: number) =>
      Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join("")
    const vocabulary = [...new Set(Array.from({ length: 1200 }, () => word(2 + Math.floor(random() * 9))))]
    const dictionary = TermDictionary.from(vocabulary.map((t, i) => [t, i] as const))
    for (let q = 0; q < 60; q++) {
      const query = word(3 + Math.floor(random() * 6))
      for (const prefix of [true, false]) {
        for (const budget of [1, 2]) {
          const expected = vocabulary
            .map((t) => ({ term: t, distance: prefix ? prefixDistance(query, t) : levenshtein(query, t) }))
            .filter((m) => m.distance <= budget)
            .sort((a, b) => a.term.localeCompare(b.term))
          const got = dictionary.lookup(query, prefix, budget).sort((a, b) => a.term.localeCompare(b.term))
          assert.deepStrictEqual(got, expected, `${query} prefix=${prefix} budget=${budget}`)
        }
      }
    }
  })

  it("budget 0: exact prefix range, or the exact term", () => {
    const dictionary = TermDictionary.from(
      [
        ["pepe", 1],
        ["pepper", 2],
        ["pep", 3],
        ["pex", 4]
      ].map(([t, i]) => [t as string, i as number] as const)
    )
    assert.deepStrictEqual(
      dictionary.lookup("pep", true, 0).map((m) => m.term),
      ["pep", "pepe", "pepper"]
    )
    assert.deepStrictEqual(
      dictionary.lookup("pep", false, 0).map((m) => m.term),
      ["pep"]
    )
  })

  it("add and remove keep the sorted terms and postings", () => {
    const dictionary = new TermDictionary()
    dictionary.add("moon", 1)
    dictionary.add("mood", 2)
    dictionary.add("moon", 3)
    assert.deepStrictEqual([...dictionary.documents("moon")].sort(), [1, 3])
    dictionary.remove("moon", 1)
    dictionary.remove("moon", 3)
    assert.strictEqual(dictionary.size, 1)
    assert.deepStrictEqual(
      dictionary.lookup("moo", true, 0).map((m) => m.term),
      ["mood"]
    )
  })
})

describe("query words", () => {
  it("typo budget: none below 4 characters, 1 from 4, 2 from 7; none for hex addresses or numbers", () => {
    assert.deepStrictEqual(["pep", "pepe", "pepecoi", "pepecoin"].map(typoBudget), [0, 1, 2, 2])
    assert.deepStrictEqual(["0xabcdef12", "0x", "1234567", "2024"].map(typoBudget), [0, 0, 0, 0])
  })

  it("terms are lower-case words without accents; addresses are recognised in any case", () => {
    assert.deepStrictEqual(terms("Pépé  Coin/WETH 2.0"), ["pepe", "coin", "weth", "2", "0"])
    assert.strictEqual(
      asAddress(" 0xAbCdEf0000000000000000000000000000000001 "),
      "0xabcdef0000000000000000000000000000000001"
    )
    assert.isNull(asAddress("0xabcdef000000000000000000000000000000001"))
  })
})
