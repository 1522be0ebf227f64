import { Duration, Effect } from "effect"

/**
 * At most `perSecond` starts per second, spread evenly (a start every 1/perSecond s, reserved in call order), so a
 * hosted plan's requests-per-second limit is met before it answers 429. 0 or less: no limit.
 */
export const makeRateLimit = (perSecond: number) => {
  if (!(perSecond > 0)) return <A, E, R>(effect: Effect.Effect<A, E, R>) => effect
  const interval = 1000 / perSecond
  let nextSlot = 0
  return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      const now = Date.now()
      const slot = Math.max(now, nextSlot)
      nextSlot = slot + interval
      return slot <= now ? effect : Effect.sleep(Duration.millis(slot - now)).pipe(Effect.andThen(effect))
    })
}
