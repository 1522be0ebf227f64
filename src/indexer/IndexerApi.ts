import { HttpApi, OpenApi } from "effect/http-api"
import { Validation } from "../platform/http/Validation.ts"
import { healthGroup, ProbesGroup } from "../platform/system/SystemApi.ts"

/** The indexer's REST side (health). Its query endpoint, `/v1/graphql`, is GraphQL and is served beside it. */
export class IndexerApi extends HttpApi.make("indexer")
  .add(healthGroup("/healthz"))
  .add(ProbesGroup)
  .middleware(Validation)
  .annotateMerge(OpenApi.annotations({ title: "fire-api indexer", version: "1" })) {}
