/**
 * `@username` mentions in a comment's text. A mention is `@` not preceded by a word character or another `@`
 * (so `a@b.com` is not one), followed by 3–20 of [A-Za-z0-9_] that are not followed by another of them (a longer
 * run is not a username). Usernames are case-insensitive: the result is lower-case, without duplicates, in order
 * of first appearance, at most MAX_MENTIONS (a comment cannot ping the whole user base).
 */
export const MAX_MENTIONS = 10

const MENTION = /(?<![\p{L}\p{N}_@])@([A-Za-z0-9_]{3,20})(?![A-Za-z0-9_])/gu

export const mentionedUsernames = (text: string): ReadonlyArray<string> => {
  const seen: Array<string> = []
  for (const match of text.matchAll(MENTION)) {
    const name = match[1]!.toLowerCase()
    if (!seen.includes(name)) seen.push(name)
    if (seen.length === MAX_MENTIONS) break
  }
  return seen
}

/** The first 140 characters (code points) of a text, for notification excerpts. */
export const excerpt = (text: string): string => {
  const chars = [...text]
  return chars.length <= 140 ? text : `${chars.slice(0, 139).join("")}…`
}

/** The users found for `names`, as mention entries in the order the names appear in the text. */
export const inTextOrder = (
  names: ReadonlyArray<string>,
  users: ReadonlyArray<{ readonly id: string; readonly username: string }>
): ReadonlyArray<{ readonly userId: string; readonly username: string }> =>
  names.flatMap((name) => {
    const user = users.find((u) => u.username === name)
    return user === undefined ? [] : [{ userId: user.id, username: user.username }]
  })
