/** Provider URLs often carry an API key in the path or query: log only scheme, host and port. */
export const redactUrl = (url: string) => {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname.length > 1 || u.search ? "/…" : ""}`
  } catch {
    return "(invalid URL)"
  }
}

const urlInText = /\b(?:https?|wss?):\/\/[^\s"'<>)]+/giu

/**
 * `text` with every URL in it redacted as `redactUrl` does. viem's errors name the request URL ("URL: https://…/v2/<key>")
 * in their message and details, so a logged RPC error would print the provider key.
 */
export const redactUrlsIn = (text: string) => text.replace(urlInText, (url) => redactUrl(url))

/** A thrown value as one redacted line for the log (viem's message holds the URL, the request body and details). */
export const redactedErrorText = (cause: unknown): string => {
  const e = cause as { name?: string; message?: string } | undefined
  const text = [e?.name, e?.message].filter(Boolean).join(": ") || String(cause)
  return redactUrlsIn(text)
    .replace(/\s*\n\s*/gu, " ")
    .slice(0, 1000)
}
