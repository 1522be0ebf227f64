/**
 * Bundles GraphiQL (web/graphiql/, from the npm packages in package.json) into dist/graphiql/ with esbuild: the
 * Monaco workers, the page's script (split, so the formatter loads only when used), its CSS and an index.html.
 * src/indexer/graphql/GraphiqlAssets.ts serves the result at GET /v1/graphql; nothing is fetched from a CDN.
 *
 * Skipped when its inputs are unchanged: dist/graphiql/manifest.json records a fingerprint of this script, the
 * sources in web/graphiql/ and package-lock.json (which pins every bundled package). Run by `npm run build` (so
 * `npm start`), `npm run dev` and the test setup; `node scripts/build-graphiql.ts --force` rebuilds anyway.
 */
import type { Metafile } from "esbuild"
import { createHash } from "node:crypto"
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { graphiqlDir, projectRoot } from "../layers/ProjectPaths.ts"

const sourceDir = NodePath.join(projectRoot, "web", "graphiql")
/** Where the page loads its files from (src/indexer/graphql/GraphiqlAssets.ts serves this path). */
export const assetsPath = "/v1/graphql/assets/"

export interface GraphiqlManifest {
  readonly fingerprint: string
  /** Every file of the bundle (name → content type), index.html included. */
  readonly files: Readonly<Record<string, string>>
}

const contentTypes: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".ttf": "font/ttf",
  ".woff2": "font/woff2",
  ".svg": "image/svg+xml"
}

const fingerprintOfInputs = async () => {
  const hash = createHash("sha256")
  const sources = (await Fs.readdir(sourceDir)).sort()
  for (const file of [
    fileURLToPath(import.meta.url),
    NodePath.join(projectRoot, "package-lock.json"),
    ...sources.map((f) => NodePath.join(sourceDir, f))
  ]) {
    hash
      .update(NodePath.relative(projectRoot, file))
      .update("\0")
      .update(await Fs.readFile(file))
      .update("\0")
  }
  return hash.digest("hex")
}

const readManifest = async (dir: string): Promise<GraphiqlManifest | undefined> => {
  try {
    return JSON.parse(await Fs.readFile(NodePath.join(dir, "manifest.json"), "utf8")) as GraphiqlManifest
  } catch {
    return undefined
  }
}

const upToDate = async (fingerprint: string) => {
  const manifest = await readManifest(graphiqlDir)
  if (manifest?.fingerprint !== fingerprint) return false
  const present = await Promise.all(
    Object.keys(manifest.files).map((f) =>
      Fs.access(NodePath.join(graphiqlDir, f)).then(
        () => true,
        () => false
      )
    )
  )
  return present.every(Boolean)
}

const page = (script: string, styles: ReadonlyArray<string>) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>fire-api indexer · GraphiQL</title>
${styles.map((s) => `<link rel="stylesheet" href="${assetsPath}${s}" />`).join("\n")}
</head>
<body>
<div id="graphiql"></div>
<script type="module" src="${assetsPath}${script}"></script>
</body>
</html>
`

/** Builds into a fresh directory and swaps it in, so a server never reads a half-written bundle. */
const bundle = async (fingerprint: string) => {
  const esbuild = await import("esbuild")
  const out = `${graphiqlDir}.tmp-${process.pid}`
  await Fs.rm(out, { recursive: true, force: true })
  const common = {
    absWorkingDir: projectRoot,
    bundle: true,
    minify: true,
    target: ["chrome120", "firefox120", "safari17"] as Array<string>,
    define: { "process.env.NODE_ENV": '"production"' },
    entryNames: "[name]-[hash]",
    outdir: out,
    metafile: true,
    logLevel: "warning"
  } as const
  const workers = await esbuild.build({
    ...common,
    format: "iife",
    entryPoints: {
      "editor.worker": "monaco-editor/esm/vs/editor/editor.worker.js",
      "json.worker": "monaco-editor/esm/vs/language/json/json.worker.js",
      "graphql.worker": "monaco-graphql/esm/graphql.worker.js"
    }
  })
  const outputOf = (result: { readonly metafile: Metafile }, entry: string) =>
    NodePath.basename(
      Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint?.endsWith(entry) === true)![0]
    )
  const workerFiles = {
    editor: outputOf(workers, "editor.worker.js"),
    json: outputOf(workers, "json.worker.js"),
    graphql: outputOf(workers, "graphql.worker.js")
  }
  const app = await esbuild.build({
    ...common,
    format: "esm",
    splitting: true,
    jsx: "automatic",
    entryPoints: { main: NodePath.join(sourceDir, "main.jsx") },
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    loader: { ".ttf": "file", ".woff2": "file", ".svg": "file" },
    define: { ...common.define, GRAPHIQL_WORKERS: JSON.stringify(workerFiles) }
  })
  const outputs = Object.keys(app.metafile.outputs).map((f) => NodePath.basename(f))
  const script = outputOf(app, "main.jsx")
  // esbuild leaves the CSS of lazily imported chunks (Monaco's) for the page to link: all of it is needed at once.
  await Fs.writeFile(NodePath.join(out, "index.html"), page(script, outputs.filter((f) => f.endsWith(".css")).sort()))
  const files: Record<string, string> = {}
  for (const file of await Fs.readdir(out)) {
    const type = contentTypes[NodePath.extname(file)]
    if (type === undefined) throw new Error(`build-graphiql: no content type for ${file}`)
    files[file] = type
    // Served as is to clients that take gzip (the bundle is ~5x smaller so), from a copy made once here.
    if (type.startsWith("text/"))
      await Fs.writeFile(
        NodePath.join(out, `${file}.gz`),
        gzipSync(await Fs.readFile(NodePath.join(out, file)), { level: 9 })
      )
  }
  const manifest: GraphiqlManifest = { fingerprint, files }
  await Fs.writeFile(NodePath.join(out, "manifest.json"), JSON.stringify(manifest, null, 2))
  await Fs.rm(graphiqlDir, { recursive: true, force: true })
  await Fs.rename(out, graphiqlDir).catch(async (error: unknown) => {
    // A concurrent build (e.g. the test setup and `npm start`) won the swap: keep its identical result.
    await Fs.rm(out, { recursive: true, force: true })
    if ((await readManifest(graphiqlDir))?.fingerprint !== fingerprint) throw error
  })
  return manifest
}

/** Builds the bundle unless it is up to date; says which, with its size. */
export const buildGraphiql = async (options: { readonly force?: boolean } = {}) => {
  const started = performance.now()
  const fingerprint = await fingerprintOfInputs()
  if (options.force !== true && (await upToDate(fingerprint))) return { built: false, ms: performance.now() - started }
  const manifest = await bundle(fingerprint)
  let bytes = 0
  let gzipBytes = 0
  for (const file of Object.keys(manifest.files)) {
    const size = (await Fs.stat(NodePath.join(graphiqlDir, file))).size
    bytes += size
    gzipBytes += await Fs.stat(NodePath.join(graphiqlDir, `${file}.gz`)).then(
      (s) => s.size,
      () => size
    )
  }
  return { built: true, ms: performance.now() - started, files: Object.keys(manifest.files).length, bytes, gzipBytes }
}

if (import.meta.main) {
  const result = await buildGraphiql({ force: process.argv.includes("--force") })
  const where = NodePath.relative(process.cwd(), graphiqlDir) || "."
  if (result.built) {
    const mb = (n: number) => (n / 1e6).toFixed(2)
    console.log(
      `graphiql: built ${where} in ${(result.ms / 1000).toFixed(1)} s (${result.files} files, ${mb(result.bytes!)} MB, ${mb(result.gzipBytes!)} MB gzipped)`
    )
  }
}
