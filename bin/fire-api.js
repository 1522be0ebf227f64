#!/usr/bin/env node
// The `fire-api` command. In a checkout on Node >= 22.18 (the project brings Node 24) it runs the TypeScript
// sources directly, as `npm run dev` does; elsewhere the build in dist/ (`npm run build`).
import { existsSync } from "node:fs"

const source = new URL("../src/cli/main.ts", import.meta.url)
const built = new URL("../dist/src/cli/main.js", import.meta.url)
const canStripTypes = process.features?.typescript !== undefined && process.features.typescript !== false
await import(existsSync(source) && canStripTypes ? source.href : built.href)
