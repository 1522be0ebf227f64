import { HttpApi, OpenApi } from "effect/http-api"
import { Validation } from "../platform/http/Validation.ts"
import { SearchGroup } from "./SearchEndpoints.ts"
import { healthGroup, ProbesGroup } from "../platform/system/SystemApi.ts"

/** The search service (`/api/v1/search*`, `/api/v1/autocomplete`). Its health route is `/api/health`, as the exchange's;
 * the index's own health is `/api/v1/search/health` and its introspection `/api/v1/search/index`. */
export class SearchApi extends HttpApi.make("search")
  .add(healthGroup("/api/health"))
  .add(ProbesGroup)
  .add(SearchGroup)
  .middleware(Validation)
  .annotateMerge(
    OpenApi.annotations({
      title: "fire-api search service",
      version: "1",
      description: "Token and pool search and autocomplete. Errors: `{ code, message, details? }`."
    })
  ) {}
