import * as Acorn from "acorn"
import { execFileSync } from "node:child_process"
import * as NodeFs from "node:fs"
import { stripTypeScriptTypes } from "node:module"
import * as NodePath from "node:path"

/**
 * `node scripts/check-tests-alone.ts [files…]`: finds test files in which one test leaves state for another, the
 * pattern that makes a test fail when it runs alone (`npx vitest run -t "<name>"`): a `let` declared outside the
 * tests (module or describe level), or a `const` holder there (object or array literal, Map, Set), that a test body
 * assigns or mutates and that code other tests run reads (another test, a helper one of them calls, a hook,
 * describe-level code). Setup belongs in a scoped layer or a `beforeAll`, which run whenever any test of their block runs.
 * Without arguments it reads every `test/**\/*.test.ts` git tracks. Exits 1 when it finds one, printing where.
 *
 * The files are read as text (types stripped by Node, parsed by acorn): names are matched within a file, a name
 * declared again inside a test body counts as that test's own.
 */

export interface SharedTestState {
  readonly file: string
  /** The variable and the line it is declared on. */
  readonly name: string
  readonly line: number
  /** The test that assigns it, and the lines where code that other tests run reads it. */
  readonly assignedIn: string
  readonly readAt: ReadonlyArray<number>
}

type Node = Acorn.Node & Record<string, any>

const TEST_CALLEES = new Set(["it", "test"])

/** `it(...)`, `it.effect(...)`, `test.each(rows)(...)`, `it.live(...)`: a call whose callee starts at `it` or `test`. */
const isTestCall = (node: Node): boolean => {
  if (node.type !== "CallExpression") return false
  let callee: Node = node.callee
  while (callee.type === "MemberExpression" || callee.type === "CallExpression") {
    callee = callee.type === "MemberExpression" ? callee.object : callee.callee
  }
  return callee.type === "Identifier" && TEST_CALLEES.has(callee.name)
}

const isFunction = (node: Node) =>
  node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression" || node.type === "FunctionDeclaration"

const children = (node: Node): Array<Node> => {
  const out: Array<Node> = []
  for (const key of Object.keys(node)) {
    if (key === "loc" || key === "range") continue
    const value = node[key]
    if (Array.isArray(value)) for (const v of value) if (v && typeof v.type === "string") out.push(v)
    if (value && typeof value.type === "string") out.push(value)
  }
  return out
}

const walk = (node: Node, visit: (node: Node, parents: ReadonlyArray<Node>) => unknown, parents: Array<Node> = []) => {
  if (visit(node, parents) === false) return
  parents.push(node)
  for (const child of children(node)) walk(child, visit, parents)
  parents.pop()
}

/** Names bound by a pattern (`a`, `{ a, b: [c] }`, `...d`). */
const patternNames = (pattern: Node | null | undefined, into: Set<string>) => {
  if (!pattern) return
  if (pattern.type === "Identifier") into.add(pattern.name)
  else if (pattern.type === "ObjectPattern")
    for (const p of pattern.properties) patternNames(p.type === "RestElement" ? p.argument : p.value, into)
  else if (pattern.type === "ArrayPattern") for (const e of pattern.elements) patternNames(e, into)
  else if (pattern.type === "RestElement") patternNames(pattern.argument, into)
  else if (pattern.type === "AssignmentPattern") patternNames(pattern.left, into)
}

/** Every name a test body declares for itself (its parameters, its variables and functions at any depth). */
const ownNames = (body: Node) => {
  const names = new Set<string>()
  walk(body, (node) => {
    if (isFunction(node)) for (const p of node.params) patternNames(p, names)
    if (node.type === "VariableDeclarator") patternNames(node.id, names)
    if (node.type === "FunctionDeclaration" && node.id) names.add(node.id.name)
    if (node.type === "CatchClause") patternNames(node.param, names)
  })
  return names
}

const rootName = (node: Node): string | undefined => {
  while (node.type === "MemberExpression") node = node.object
  return node.type === "Identifier" ? node.name : undefined
}

const MUTATORS = new Set(["push", "unshift", "splice", "set", "add", "delete", "clear"])

/**
 * Names a node writes: assigns (`x = …`, `x += …`, `x++`, `[x, y] = …`) or mutates (`x.field = …`, `x.push(…)`,
 * `x.set(…)`: a holder object, array, Map or Set).
 */
const assignedNames = (node: Node, into: Set<string>) => {
  if (node.type === "AssignmentExpression") {
    if (node.left.type === "MemberExpression") {
      const root = rootName(node.left)
      if (root !== undefined) into.add(root)
    } else patternNames(node.left, into)
  }
  if (node.type === "UpdateExpression") {
    const root = rootName(node.argument)
    if (root !== undefined) into.add(root)
  }
  if (
    node.type === "CallExpression" &&
    node.callee.type === "MemberExpression" &&
    !node.callee.computed &&
    MUTATORS.has(node.callee.property.name)
  ) {
    const root = rootName(node.callee.object)
    if (root !== undefined) into.add(root)
  }
}

/** A `const` that holds mutable state: an object or array literal, or a `new Map`/`new Set`. */
const isHolder = (init: Node | null | undefined) =>
  init != null &&
  (init.type === "ObjectExpression" ||
    init.type === "ArrayExpression" ||
    (init.type === "NewExpression" && init.callee.type === "Identifier" && ["Map", "Set"].includes(init.callee.name)))

/** Identifier references (not property names, not object keys), with their ancestors. */
const references = (root: Node, visit: (id: Node, parents: ReadonlyArray<Node>) => void) =>
  walk(root, (node, parents) => {
    if (node.type !== "Identifier") return
    const parent = parents[parents.length - 1]
    if (parent?.type === "MemberExpression" && parent.property === node && !parent.computed) return
    if (parent?.type === "Property" && parent.key === node && !parent.computed && !parent.shorthand) return
    if (parent?.type === "VariableDeclarator" && parent.id === node) return
    visit(node, parents)
  })

const HOOKS = new Set(["beforeAll", "beforeEach", "afterAll", "afterEach"])

/**
 * Where a read stands: in a test (the call), in a hook, in a named helper outside the tests (its name), or elsewhere
 * (describe level: run by every test).
 */
type Place = { readonly test: Node } | { readonly helper: string } | "hook" | "describe"

const placeOf = (parents: ReadonlyArray<Node>): Place => {
  for (const node of parents) if (isTestCall(node)) return { test: node }
  for (let i = parents.length - 1; i >= 0; i--) {
    const node = parents[i]!
    if (node.type === "CallExpression" && node.callee.type === "Identifier" && HOOKS.has(node.callee.name))
      return "hook"
    if (node.type === "FunctionDeclaration" && node.id) return { helper: node.id.name }
    if (node.type === "VariableDeclarator" && node.id.type === "Identifier" && node.init && i < parents.length - 1)
      return { helper: node.id.name }
  }
  return "describe"
}

const testName = (call: Node) => {
  const first = call.arguments[0]
  if (first?.type === "Literal") return String(first.value)
  if (first?.type === "TemplateLiteral") return first.quasis.map((q: Node) => q.value.cooked).join("${…}")
  return "(a test)"
}

export const findSharedTestState = (file: string, source: string): Array<SharedTestState> => {
  const js = stripTypeScriptTypes(source, { mode: "strip" })
  const program = Acorn.parse(js, { ecmaVersion: "latest", sourceType: "module", locations: true }) as Node
  // The tests (outermost test calls) and their bodies.
  const tests: Array<{ call: Node; bodies: Array<Node> }> = []
  walk(program, (node) => {
    if (!isTestCall(node)) return
    tests.push({ call: node, bodies: node.arguments.filter(isFunction) })
    return false
  })
  const inTest = (node: Node) => tests.some((t) => t.call.start <= node.start && node.end <= t.call.end)
  // `let`s and holders declared outside every test.
  const lets = new Map<string, Node>()
  walk(program, (node) => {
    if (node.type === "VariableDeclaration" && !inTest(node)) {
      for (const d of node.declarations) {
        if (node.kind !== "let" && !(node.kind === "const" && isHolder(d.init))) continue
        const names = new Set<string>()
        patternNames(d.id, names)
        for (const name of names) lets.set(name, d)
      }
    }
  })
  if (lets.size === 0) return []
  // Which tests reach each helper (a name declared outside the tests), directly or through other helpers.
  const helperUsers = new Map<string, Set<Node>>()
  const helperCalls = new Map<string, Set<string>>()
  references(program, (id, parents) => {
    const place = placeOf(parents)
    if (typeof place !== "object") return
    if ("test" in place) {
      const users = helperUsers.get(id.name) ?? new Set()
      users.add(place.test)
      helperUsers.set(id.name, users)
    } else if (place.helper !== id.name) {
      const callers = helperCalls.get(id.name) ?? new Set()
      callers.add(place.helper)
      helperCalls.set(id.name, callers)
    }
  })
  const testsReaching = (helper: string, seen = new Set<string>()): Set<Node> => {
    if (seen.has(helper)) return new Set()
    seen.add(helper)
    const out = new Set(helperUsers.get(helper) ?? [])
    for (const caller of helperCalls.get(helper) ?? []) for (const t of testsReaching(caller, seen)) out.add(t)
    return out
  }
  const found: Array<SharedTestState> = []
  for (const test of tests) {
    const own = new Set<string>()
    for (const body of test.bodies) for (const n of ownNames(body)) own.add(n)
    const assigned = new Set<string>()
    for (const body of test.bodies) walk(body, (node) => assignedNames(node, assigned))
    for (const name of assigned) {
      const declaration = lets.get(name)
      if (declaration === undefined || own.has(name)) continue
      // Read by another test, a hook, describe-level code, or a helper another test reaches.
      const readAt: Array<number> = []
      references(program, (id, parents) => {
        if (id.name !== name) return
        if (declaration.start <= id.start && id.end <= declaration.end) return
        const place = placeOf(parents)
        const elsewhere =
          typeof place !== "object"
            ? true
            : "test" in place
              ? place.test !== test.call
              : [...testsReaching(place.helper)].some((t) => t !== test.call)
        if (elsewhere) readAt.push(id.loc!.start.line)
      })
      if (readAt.length > 0)
        found.push({
          file,
          name,
          line: declaration.loc!.start.line,
          assignedIn: testName(test.call),
          readAt
        })
    }
  }
  return found
}

const trackedTestFiles = (root: string) =>
  execFileSync("git", ["ls-files", "test/**/*.test.ts", "test/*.test.ts"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "")

if (import.meta.main) {
  const root = NodePath.resolve(import.meta.dirname, "..")
  const files = process.argv.length > 2 ? process.argv.slice(2) : trackedTestFiles(root)
  const found = files.flatMap((f) => findSharedTestState(f, NodeFs.readFileSync(NodePath.resolve(root, f), "utf8")))
  for (const s of found)
    console.log(
      `${s.file}:${s.line}: \`${s.name}\` is assigned in "${s.assignedIn}" and read at lines ${s.readAt.join(", ")}`
    )
  console.log(
    found.length === 0
      ? `${files.length} test files: no test leaves state for another`
      : `${found.length} shared variables; move their setup into a scoped layer or a beforeAll`
  )
  process.exitCode = found.length === 0 ? 0 : 1
}
