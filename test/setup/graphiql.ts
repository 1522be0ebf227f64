import { buildGraphiql } from "../../scripts/build-graphiql.ts"

/**
 * The GraphiQL bundle the indexer serves at GET /v1/graphql (dist/graphiql/): built here when missing or when its
 * inputs changed (a few seconds), so `npm test` on a fresh clone needs no `npm run build` first; otherwise a no-op.
 */
export default async function setup() {
  const result = await buildGraphiql()
  if (result.built) console.log(`graphiql bundle built for the tests in ${(result.ms / 1000).toFixed(1)} s`)
}
