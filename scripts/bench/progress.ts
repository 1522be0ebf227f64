/**
 * A line every few seconds while a long benchmark phase runs, so a run of minutes shows it is alive and how far it
 * got: `[label] 15 s: <detail>` on stderr (stdout keeps the figures). `detail` reports what the phase can count
 * (blocks, requests, …); without it the line says how long the phase has run.
 */
export const withProgress = async <A>(
  label: string,
  work: () => Promise<A>,
  options: { readonly detail?: () => string; readonly everyMs?: number } = {}
): Promise<A> => {
  const t0 = performance.now()
  const timer = setInterval(() => {
    const seconds = Math.round((performance.now() - t0) / 1000)
    const detail = options.detail?.()
    process.stderr.write(`[${label}] ${seconds} s${detail === undefined || detail === "" ? "" : `: ${detail}`}\n`)
  }, options.everyMs ?? 5_000)
  timer.unref()
  try {
    return await work()
  } finally {
    clearInterval(timer)
  }
}
