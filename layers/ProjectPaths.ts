import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

/**
 * The project root, whether this module runs from the sources (`layers/ProjectPaths.ts`) or from the build
 * (`dist/layers/ProjectPaths.js`). Runtime assets such as `sql/` and `contracts/` live at the root, not in `dist/`.
 */
const here = NodePath.dirname(fileURLToPath(import.meta.url))
const parent = NodePath.dirname(here)
export const projectRoot: string = NodePath.basename(parent) === "dist" ? NodePath.dirname(parent) : parent

export const sqlDir: string = NodePath.join(projectRoot, "sql")

/** The GraphiQL bundle that scripts/build-graphiql.ts writes and src/indexer/graphql/GraphiqlAssets.ts serves. */
export const graphiqlDir: string = NodePath.join(projectRoot, "dist", "graphiql")
