/**
 * Resolves when `condition` holds, checking every 20 ms; rejects with `what` after `timeoutMs`. For states a test
 * cannot be told about (a socket connected, a counter reached), so the test waits on the state, not on a guess.
 */
export const until = async (what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
