/** The routing core the quote engine uses (workers/routing, pure functions over plain data). */
export { makeRouter } from "./routing/index.ts"
