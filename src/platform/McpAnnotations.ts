import { Context } from "effect"

/**
 * Annotations a route may carry for its MCP tool, written on the endpoint beside its OpenAPI text
 * (`.annotate(McpToolHints, {...})`). Everything else about a tool is derived from the route itself.
 */

/** Overrides of the hints derived from the method (GET read-only; POST additive; PUT/PATCH/DELETE idempotent). */
export class McpToolHints extends Context.Service<
  McpToolHints,
  {
    readonly readOnlyHint?: boolean
    readonly destructiveHint?: boolean
    readonly idempotentHint?: boolean
    readonly openWorldHint?: boolean
  }
>()("app/mcp/McpToolHints") {}

/**
 * What a route does to the MCP session: `issues` (its success body is `{token, expiresAt, ...}`: the session keeps
 * the token and sends it with later calls) or `ends` (the session forgets its token).
 */
export class McpSessionEffect extends Context.Service<McpSessionEffect, "issues" | "ends">()(
  "app/mcp/McpSessionEffect"
) {}

/**
 * `true` on an endpoint that stays in OpenAPI but is no MCP tool: routes whose only callers are machines operating the
 * service (orchestrator and load-balancer probes, Prometheus metrics, search index introspection). An agent has no
 * use for them; the health report (`/healthz`, `/api/health`) and the indexer status stay tools (the spec lists them).
 */
export class McpExclude extends Context.Service<McpExclude, boolean>()("app/mcp/McpExclude") {}
