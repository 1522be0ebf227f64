import { Effect } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { ClientApi } from "../client-api/ClientApi.ts"
import { ExchangeApi } from "../exchange-api/ExchangeApi.ts"
import { SearchApi } from "../search/SearchApi.ts"

/**
 * The typed clients of the three HTTP APIs, derived from the same HttpApi definitions as the server, its OpenAPI
 * document and the MCP tools (`import { clientApi } from "fire-api/client"`). Each is an Effect that needs an
 * `HttpClient` (`FetchHttpClient.layer` works in Node ≥ 18, browsers, Deno and Bun).
 */

export { ClientApi, ExchangeApi, SearchApi }
export { type ClaimTypedDataAnswer, signClaim, signIn, signInMessage, type SignInOptions } from "./Signing.ts"
export { FetchHttpClient }

export interface Credentials {
  /** Session JWT (from wallet sign-in), sent as `Authorization: Bearer`. */
  readonly token?: string | undefined
  /** Partner key of the quote routes, sent as `x-api-key` (never as Bearer). */
  readonly apiKey?: string | undefined
}

const withCredentials = (credentials: Credentials) => (client: HttpClient.HttpClient) =>
  HttpClient.mapRequest(client, (request) => {
    let next = request
    if (credentials.token !== undefined) next = HttpClientRequest.bearerToken(next, credentials.token)
    if (credentials.apiKey !== undefined) next = HttpClientRequest.setHeader(next, "x-api-key", credentials.apiKey)
    return next
  })

/** Client API (`/v1`): sessions, users, tokens, launches, comments, fuel, gifts, feeds. */
export const clientApi = (baseUrl: string, credentials: Credentials = {}) =>
  HttpApiClient.make(ClientApi, { baseUrl, transformClient: withCredentials(credentials) })

/** Exchange API (`/api/v1`): quotes, pools, tokens, stats, positions, swap status. */
export const exchangeApi = (baseUrl: string, credentials: Credentials = {}) =>
  HttpApiClient.make(ExchangeApi, { baseUrl, transformClient: withCredentials(credentials) })

/** Search service: token and pool search, autocomplete. */
export const searchApi = (baseUrl: string) => HttpApiClient.make(SearchApi, { baseUrl })

/** Runs a program that uses the clients with the platform's `fetch`. */
export const runWithFetch = <A, E>(program: Effect.Effect<A, E, HttpClient.HttpClient>): Promise<A> =>
  Effect.runPromise(Effect.provide(program, FetchHttpClient.layer))
