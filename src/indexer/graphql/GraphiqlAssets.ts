import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { graphiqlDir } from "../../../layers/ProjectPaths.ts"
import { errorResponse } from "../../platform/http/RequestContext.ts"

/** What scripts/build-graphiql.ts writes beside the bundle: every file's name and content type. */
interface Manifest {
  readonly files: Readonly<Record<string, string>>
}

/**
 * The page's own policy (it replaces the global `frame-ancestors 'none'`, src/platform/http/HttpSecurity.ts, and keeps it):
 * scripts, workers, styles and fonts only from this origin's bundle; requests only to this origin (the GraphQL POST
 * and the graphql-ws socket, which 'self' covers in CSP 3). Inline styles are allowed because Monaco and GraphiQL's
 * components set them at run time; inline and eval'd scripts are not.
 */
export const graphiqlCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

const readManifest = (dir: string) =>
  Effect.tryPromise(
    async () => JSON.parse(await Fs.readFile(NodePath.join(dir, "manifest.json"), "utf8")) as Manifest
  ).pipe(Effect.option)

const notBuilt = HttpServerResponse.text(
  "GraphiQL is not built in this checkout: run `npm run build:graphiql` (or `npm run build`). POST /v1/graphql works without it.\n",
  { status: 503, headers: { "cache-control": "no-store" } }
)

const takesGzip = (request: HttpServerRequest.HttpServerRequest) =>
  /\bgzip\b/u.test(request.headers["accept-encoding"] ?? "")

/**
 * GraphiQL at `GET /v1/graphql` and its files at `GET /v1/graphql/assets/<name>`, from dist/graphiql/
 * (scripts/build-graphiql.ts). File names carry their content hash, so they are cached for a year; the page itself
 * is revalidated. Only names listed in the manifest are served. The manifest (2 KB) is read on each request, so a
 * bundle built or rebuilt while the server runs is served at once (a first `npm start` need not wait for it).
 */
export const graphiqlAssets = (dir: string) => {
  const serve = (name: string, cacheControl: string, extra: Record<string, string> = {}) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const manifest = yield* readManifest(dir)
      if (manifest._tag === "None") return notBuilt
      const files = manifest.value.files
      const contentType = Object.hasOwn(files, name) ? files[name] : undefined
      if (contentType === undefined)
        return errorResponse(404, { code: "NOT_FOUND", message: `No GraphiQL file ${name.slice(0, 100)}` })
      const gzip = contentType.startsWith("text/") && takesGzip(request)
      const body = yield* Effect.tryPromise(() => Fs.readFile(NodePath.join(dir, gzip ? `${name}.gz` : name))).pipe(
        Effect.option
      )
      if (body._tag === "None") return notBuilt
      return HttpServerResponse.uint8Array(body.value, {
        contentType,
        headers: {
          "cache-control": cacheControl,
          vary: "Accept-Encoding",
          ...(gzip ? { "content-encoding": "gzip" } : {}),
          ...extra
        }
      })
    })
  return Layer.mergeAll(
    HttpRouter.add("GET", "/v1/graphql", serve("index.html", "no-cache", { "content-security-policy": graphiqlCsp })),
    HttpRouter.add(
      "GET",
      "/v1/graphql/assets/:name",
      // The page is served at /v1/graphql only (with its CSP), never as an asset.
      Effect.flatMap(HttpRouter.params, (params) =>
        serve(params.name === "index.html" ? "" : (params.name ?? ""), "public, max-age=31536000, immutable")
      )
    )
  )
}

/** The routes over the bundle `npm run build` writes (layers/ProjectPaths.ts graphiqlDir). */
export const GraphiqlAssetsLive = graphiqlAssets(graphiqlDir)
