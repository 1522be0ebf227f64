import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { getAddress } from "viem"
import { ClientApi } from "../../ClientApi.ts"
import { CompetitionStats, LeaderboardEntry } from "./CompetitionApi.ts"
import { type BoardName, type EntryRow, Leaderboards } from "./Leaderboards.ts"

const entries = (rows: ReadonlyArray<EntryRow>, board: BoardName) =>
  rows
    .filter((r) => r.board === board)
    .map(
      (r) =>
        new LeaderboardEntry({
          rank: r.rank,
          walletAddress: getAddress(r.wallet),
          userId: r.userId,
          username: r.username,
          name: r.name,
          value: r.value
        })
    )

export const CompetitionHttp = HttpApiBuilder.group(
  ClientApi,
  "competition",
  Effect.fn(function* (handlers) {
    const boards = yield* Leaderboards
    return handlers.handle("getCompetitionStats", ({ query }) =>
      Effect.map(boards.read(query.period ?? "week", query.limit ?? 10), ({ entries: rows, refreshed }) => {
        const r = Option.getOrNull(refreshed)
        return new CompetitionStats({
          period: query.period ?? "week",
          startsAt: r?.startsAt?.toISOString() ?? null,
          endsAt: r?.endsAt?.toISOString() ?? null,
          computedAt: r?.computedAt.toISOString() ?? null,
          indexedBlock: r?.indexedBlock ?? null,
          boards: {
            volume: entries(rows, "volume"),
            fuelGiven: entries(rows, "fuelGiven"),
            yaps: entries(rows, "yaps")
          }
        })
      })
    )
  })
)
