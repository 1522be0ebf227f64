/**
 * Tool names are derived from the route's method and path, not from a list: `<prefix>_<segments>` where the
 * segments are the path's fixed parts after `/v1` or `/api/v1` (parameters dropped), snake_cased. So
 * `POST /v1/session/wallet/verify` is `app_session_wallet_verify` and `GET /api/v1/pools/:poolId/ticks` is
 * `dex_pools_ticks`. Routes that share those segments are told apart by a verb for their method (`app_launch_create`,
 * `app_launch_get`, `app_launch_delete`: GET get, POST create, PUT/PATCH update, DELETE delete; the method itself
 * if two verbs clash), then, for the same method, by their parameters (`app_badges_by_badge_id`). A verb, not the
 * method, because "post" is also a path word (`app_comments_tokens_post` is GET a comment by post number).
 * The names are a function of the whole API: adding a route can rename the routes it collides with.
 */

export interface NamedRoute {
  readonly method: string
  readonly path: string
}

export const TOOL_NAME_PATTERN = /^(app|dex)_[a-z0-9_]+$/

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")

const segments = (path: string) => path.split("/").filter((s) => s !== "")
const isParam = (segment: string) => segment.startsWith(":") || segment.startsWith("{")
const paramName = (segment: string) => segment.replace(/^[:{]|[}?]$/g, "")

/** The fixed part of a path: `/api/v1/pools/:poolId/ticks` → `pools_ticks`; the version prefix is not part of it. */
export const pathStem = (path: string): string => {
  const parts = segments(path)
  let start = 0
  if (parts[start] === "api") start++
  if (parts[start] !== undefined && /^v\d+$/.test(parts[start]!)) start++
  const stem = parts
    .slice(start)
    .filter((s) => !isParam(s))
    .map(snake)
    .filter((s) => s !== "")
    .join("_")
  return stem === "" ? "root" : stem
}

const verbs: Record<string, string> = { GET: "get", POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" }
const verbOf = (method: string) => verbs[method] ?? method.toLowerCase()

const paramsOf = (path: string) =>
  segments(path)
    .filter(isParam)
    .map((s) => snake(paramName(s)))

/** One name per route, in the routes' order; throws when two routes still end up with one name (a test catches it). */
export const toolNames = (prefix: "app" | "dex", routes: ReadonlyArray<NamedRoute>): Array<string> => {
  const stems = routes.map((r) => pathStem(r.path))
  const names = routes
    .map((route, i) => {
      const clash = routes.filter((_, j) => stems[j] === stems[i])
      if (clash.length === 1) return stems[i]!
      const parts = [stems[i]!]
      if (new Set(clash.map((r) => r.method)).size > 1) {
        const verbClash = clash.some((r) => r.method !== route.method && verbOf(r.method) === verbOf(route.method))
        parts.push(verbClash ? route.method.toLowerCase() : verbOf(route.method))
      }
      const sameMethod = clash.filter((r) => r.method === route.method)
      const params = paramsOf(route.path)
      if (sameMethod.length > 1 && params.length > 0) parts.push("by", ...params)
      return parts.join("_")
    })
    .map((name) => `${prefix}_${name}`)
  const seen = new Map<string, number>()
  names.forEach((name, i) => {
    const before = seen.get(name)
    if (before !== undefined) {
      throw new Error(
        `MCP tool name ${name} is derived for both ${routes[before]!.method} ${routes[before]!.path} and ` +
          `${routes[i]!.method} ${routes[i]!.path}`
      )
    }
    seen.set(name, i)
  })
  return names
}
