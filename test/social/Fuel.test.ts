import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type Address, encodeFunctionData, getAddress, parseEther, toHex } from "viem"
import { FuelVaultAbi } from "../../contracts/generated/index.ts"
import { AnvilChain } from "../support/AnvilChain.ts"
import { bearer, client } from "../support/http.ts"
import { tokenFor } from "../sessions/support.ts"
import { indexerAtHead, SocialServer } from "./support.ts"

/**
 * Fuel balances against the chain itself: after tips and a withdrawal sent with viem, and after anvil replaces the
 * last blocks (a reorg), GET /v1/fuel/credits equals both the sum of the FuelVault events the chain returns and
 * Σ FuelVault.fuelOf(token) over the creator's tokens.
 */

/** What the chain says about `creator`'s fuel: sums of its FuelVault events and the vault's state. */
const onChain = (creator: Address) =>
  Effect.gen(function* () {
    const anvil = yield* AnvilChain
    const vault = anvil.deployments.launchpad!.fuelVault
    const tokens = anvil.deployments.launches.filter((l) => l.creator === creator && l.canonical).map((l) => l.token)
    const [given, withdrawn] = yield* Effect.promise(() =>
      Promise.all([
        anvil.publicClient.getContractEvents({
          address: vault,
          abi: FuelVaultAbi,
          eventName: "FuelGiven",
          args: { creator },
          fromBlock: 0n
        }),
        anvil.publicClient.getContractEvents({
          address: vault,
          abi: FuelVaultAbi,
          eventName: "FuelWithdrawn",
          args: { creator },
          fromBlock: 0n
        })
      ])
    )
    const sum = (xs: ReadonlyArray<{ args: { amount?: bigint } }>) => xs.reduce((s, e) => s + e.args.amount!, 0n)
    const fuelOf = yield* Effect.promise(() =>
      Promise.all(
        tokens.map((token) =>
          anvil.publicClient.readContract({ address: vault, abi: FuelVaultAbi, functionName: "fuelOf", args: [token] })
        )
      )
    )
    return {
      received: sum(given),
      withdrawn: sum(withdrawn),
      pending: fuelOf.reduce((s, x) => s + x, 0n),
      givenTxs: given.map((e) => e.transactionHash)
    }
  })

const get = (path: string, token: string) => client(path, { headers: bearer(token) })

/** Every item of a cursor-paginated route, following nextCursor with pages of `limit`. */
const allPages = (path: string, token: string, limit: number) =>
  Effect.gen(function* () {
    const items: Array<any> = []
    let cursor: string | null = null
    do {
      const res: { status: number; body: any } = yield* get(
        `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
        token
      )
      assert.strictEqual(res.status, 200, JSON.stringify(res.body))
      items.push(...res.body.items)
      cursor = res.body.nextCursor
    } while (cursor !== null)
    return items
  })

layer(SocialServer(), { timeout: "120 seconds", excludeTestServices: true })(
  "fuel from indexed FuelVault events",
  (it) => {
    it.effect(
      "balances equal the sum of on-chain events after tips and withdrawals made with viem, and after a reorg",
      () =>
        Effect.gen(function* () {
          const anvil = yield* AnvilChain
          const [blaze, alice, carol, erin] = [
            anvil.accounts[2]!,
            anvil.accounts[5]!,
            anvil.accounts[7]!,
            anvil.accounts[9]!
          ]
          const vault = anvil.deployments.launchpad!.fuelVault
          const tokenOf = (symbol: string) => anvil.deployments.launches.find((l) => l.symbol === symbol)!.token
          const [blze, sprk] = [tokenOf("BLZE"), tokenOf("SPRK")]
          const blazeToken = yield* tokenFor(blaze)
          const aliceToken = yield* tokenFor(alice)

          const expectMatch = (label: string) =>
            Effect.gen(function* () {
              yield* indexerAtHead
              const chain = yield* onChain(blaze.address)
              const credits = yield* get("/v1/fuel/credits", blazeToken)
              assert.strictEqual(credits.status, 200, JSON.stringify(credits.body))
              assert.strictEqual(credits.body.received, chain.received.toString(), `${label}: received`)
              assert.strictEqual(credits.body.withdrawn, chain.withdrawn.toString(), `${label}: withdrawn`)
              assert.strictEqual(
                BigInt(credits.body.withdrawable) + BigInt(credits.body.locked),
                chain.pending,
                `${label}: Σ fuelOf`
              )
              assert.strictEqual(
                chain.received - chain.withdrawn,
                chain.pending,
                `${label}: the chain agrees with itself`
              )
              assert.strictEqual(credits.body.balance, credits.body.withdrawable, `${label}: no gift credits yet`)
              const received = yield* allPages("/v1/fuel/received", blazeToken, 2)
              assert.deepStrictEqual(
                received.map((t) => t.txHash).sort(),
                [...chain.givenTxs].sort(),
                `${label}: received list`
              )
              return { credits: credits.body, received }
            })

          const seeded = yield* expectMatch("seeded devnet")
          assert.isAbove(Number(seeded.credits.withdrawn), 0, "the seed withdrew BLZE fuel")

          // Tips and a withdrawal with viem (the wallet clients of anvil's accounts).
          yield* Effect.promise(() => anvil.sender.write(alice, vault, FuelVaultAbi, "give", [blze], parseEther("0.3")))
          yield* Effect.promise(() =>
            anvil.sender.write(carol, vault, FuelVaultAbi, "give", [sprk], parseEther("0.07"))
          )
          yield* Effect.promise(() => anvil.sender.write(blaze, vault, FuelVaultAbi, "withdraw", [blze]))
          const lastTip = yield* Effect.promise(() =>
            anvil.sender.write(alice, vault, FuelVaultAbi, "give", [sprk], parseEther("0.11"))
          )
          const after = yield* expectMatch("after tips and a withdrawal")
          assert.strictEqual(BigInt(after.credits.received) - BigInt(seeded.credits.received), parseEther("0.48"))
          const sprkRow = after.credits.tokens.find((t: any) => t.token === getAddress(sprk))
          assert.strictEqual(sprkRow.pending, parseEther("0.18").toString())
          // Newest first, with the counterparty (the giver) and the token.
          assert.strictEqual(after.received[0].txHash, lastTip.transactionHash)
          assert.strictEqual(after.received[0].counterparty, alice.address)
          assert.strictEqual(after.received[0].tokenSymbol, "SPRK")
          assert.strictEqual(after.received[0].amount, parseEther("0.11").toString())
          const given = yield* allPages("/v1/fuel/given", aliceToken, 1)
          assert.deepStrictEqual(
            given.slice(0, 2).map((t) => [t.counterparty, t.tokenSymbol]),
            [
              [blaze.address, "SPRK"],
              [blaze.address, "BLZE"]
            ]
          )

          // A reorg: the last two blocks (the withdrawal and the last tip) are replaced by blocks holding another tip.
          const replaced = yield* Effect.promise(() =>
            anvil.reorg(2, [
              [
                {
                  from: erin.address,
                  to: vault,
                  data: encodeFunctionData({ abi: FuelVaultAbi, functionName: "give", args: [sprk] }),
                  value: toHex(parseEther("0.05"))
                },
                0
              ]
            ])
          )
          assert.notStrictEqual(replaced[0]!.before, replaced[0]!.after)
          const reorged = yield* expectMatch("after a reorg")
          assert.notInclude(
            reorged.received.map((t) => t.txHash),
            lastTip.transactionHash,
            "the dropped tip is gone"
          )
          assert.strictEqual(reorged.received[0].counterparty, erin.address, "the new branch's tip is there")
          assert.strictEqual(reorged.credits.withdrawn, seeded.credits.withdrawn, "the dropped withdrawal is gone")
          assert.strictEqual(
            (yield* allPages("/v1/fuel/given", aliceToken, 1)).filter((t) => t.tokenSymbol === "SPRK").length,
            given.filter((t) => t.tokenSymbol === "SPRK").length - 1
          )

          // The profile widget reads the same events.
          const widget = yield* client(`/v1/users/fuels?address=${alice.address}&limit=100`)
          assert.deepStrictEqual(
            widget.body.items.map((t: any) => t.txHash),
            (yield* allPages("/v1/fuel/given", aliceToken, 100)).map((t) => t.txHash)
          )
          assert.isTrue(widget.body.items.every((t: any) => t.direction === "given"))
          const stats = yield* client(`/v1/users/stats?address=${blaze.address}`)
          assert.strictEqual(stats.body.fuelsReceived, reorged.received.length)
        })
    )

    it.effect("JWT required; a malformed cursor is 400 INVALID_CURSOR; a wallet with no fuel gets zeros", () =>
      Effect.gen(function* () {
        for (const path of ["/v1/fuel/credits", "/v1/fuel/received", "/v1/fuel/given"]) {
          const res = yield* client(path)
          assert.strictEqual(res.status, 401, path)
          assert.strictEqual(res.body.code, "UNAUTHORIZED")
        }
        const anvil = yield* AnvilChain
        const token = yield* tokenFor(anvil.accounts[8]!)
        const bad = yield* get("/v1/fuel/received?cursor=nope", token)
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.body.code, "INVALID_CURSOR")
        const credits = yield* get("/v1/fuel/credits", token)
        assert.strictEqual(credits.body.balance, "0")
        assert.deepStrictEqual(credits.body.tokens, [])
      })
    )
  }
)
