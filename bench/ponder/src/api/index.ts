import { Hono } from "hono"

// Ponder requires an API file; the bench only uses /ready and /status.
export default new Hono()
