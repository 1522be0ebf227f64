import { Context, Effect, Layer } from "effect"
import { GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from "graphql"
import { Health, version } from "../system/Health.ts"

/**
 * The indexer's GraphQL schema. Features contribute their query fields and subscriptions (later issues); the root
 * always has `_meta`, the service's own status, as Ponder's `_meta` does.
 */
export class GraphqlSchema extends Context.Service<GraphqlSchema, GraphQLSchema>()("app/graphql/GraphqlSchema") {
  static readonly layer = Layer.effect(
    GraphqlSchema,
    Effect.gen(function*() {
      const health = yield* Health
      const context = yield* Effect.context<never>()
      const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromiseWith(context)(effect)
      const Meta = new GraphQLObjectType({
        name: "Meta",
        description: "Status of the indexer service",
        fields: {
          version: { type: new GraphQLNonNull(GraphQLString) },
          database: {
            type: new GraphQLNonNull(GraphQLString),
            description: "up | down",
            resolve: () =>
              run(health.report("indexer").pipe(Effect.as("up"), Effect.catch(() => Effect.succeed("down"))))
          }
        }
      })
      return new GraphQLSchema({
        query: new GraphQLObjectType({
          name: "Query",
          fields: { _meta: { type: new GraphQLNonNull(Meta), resolve: () => ({ version }) } }
        })
      })
    })
  )
}
