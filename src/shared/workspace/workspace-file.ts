import { z } from 'zod'
import { listOf, namedIssues } from '../capped-issues'
import { ConnectionInputSchema } from '../connections/connection-input'
import { nestedDeeperThan } from '../json-depth'
import { FacetDeclarationSchema, facetDeclarationProblems, MAX_FACET_DECLARATIONS, type FacetDeclaration } from '../query/facet-declaration'
import { OPTION_ORDER, QueryRequestSchema, type QueryRequest, type Step } from '../query/model'
import { formatPath } from '../query/request-json'
import { QuerySetSchema, type QuerySet } from '../relevance/query-set'
import { TestCaseSchema, type TestCase } from '../test-cases/test-case'

/**
 * The workspace file (`.qxw.json`): named saved queries and the connections
 * they run on, as plain JSON meant to be committed to git and shared. So it is
 * written byte-stable (the same workspace always gives the same text) and read
 * as hostile input: a file from someone else is checked field by field, and a
 * field that looks like a secret or a token is refused rather than ignored,
 * because such a file must not travel around with a credential in it.
 */

export const WORKSPACE_FORMAT = 'query-explorer-workspace'
export const WORKSPACE_VERSION = 1
export const WORKSPACE_EXTENSION = '.qxw.json'

/** An id that only links a query to a connection inside one file (not the app's connection id). */
const FileId = z.string().min(1).max(200)

/**
 * A connection as the file describes it: the profile's fields minus anything
 * that is the app's own (its id, the deadline setting) and with no room for
 * a secret. Unknown keys are stripped, so nothing the schema does not name is
 * ever written back.
 */
export const WorkspaceConnectionSchema = ConnectionInputSchema.pick({
  name: true,
  authUrl: true,
  queryUrl: true,
  version: true,
  workspace: true,
  api: true,
  config: true,
  clientId: true,
  tokenRequest: true,
  audience: true,
})
  .extend({
    id: FileId,
    /** Facets declared by hand for this connection's API (facet-declaration.ts): shared with the file, as its queries are. */
    facets: z.array(FacetDeclarationSchema).max(MAX_FACET_DECLARATIONS).optional(),
  })
  .strip()

export const SavedQuerySchema = z
  .object({
    name: z.string().min(1).max(200),
    /** The `id` of one of the file's connections. */
    connection: FileId,
    notes: z.string().max(100_000).default(''),
    /** The request model: chain, response type and options. */
    request: QueryRequestSchema,
  })
  .strip()

/**
 * `tests` are the workspace's test cases (test-case.ts). Top-level keys this
 * version does not know are kept as they were and written back, so an older
 * app does not drop what a newer one added.
 */
export const WorkspaceSchema = z
  .object({
    format: z.literal(WORKSPACE_FORMAT),
    version: z.literal(WORKSPACE_VERSION),
    // Each list names its first problems and counts the rest (capped-issues.ts): a file may hold a great many wrong entries.
    connections: listOf(WorkspaceConnectionSchema, 1_000).default(() => []),
    queries: listOf(SavedQuerySchema, 10_000).default(() => []),
    tests: listOf(TestCaseSchema, 10_000).optional(),
    /** Query sets with their judgments (relevance/query-set.ts). */
    sets: listOf(QuerySetSchema, 1_000).optional(),
  })
  .loose()
  .superRefine((workspace, context) => {
    const ids = new Set<string>()
    workspace.connections.forEach((connection, index) => {
      if (ids.has(connection.id)) {
        context.addIssue({ code: 'custom', path: ['connections', index, 'id'], message: `the id "${connection.id}" is used by two connections` })
      }
      ids.add(connection.id)
      const facets = connection.facets ?? []
      facets.forEach((_, f) => {
        for (const problem of facetDeclarationProblems(facets, f)) {
          context.addIssue({ code: 'custom', path: ['connections', index, 'facets', f, problem.field], message: problem.message })
        }
      })
    })
    const names = new Set<string>()
    workspace.queries.forEach((query, index) => {
      if (!ids.has(query.connection)) {
        context.addIssue({ code: 'custom', path: ['queries', index, 'connection'], message: `names no connection of this file ("${query.connection}")` })
      }
      if (names.has(query.name)) {
        context.addIssue({ code: 'custom', path: ['queries', index, 'name'], message: `the name "${query.name}" is used by two queries` })
      }
      names.add(query.name)
    })
    const testNames = new Set<string>()
    workspace.tests?.forEach((testCase, index) => {
      // A case naming a saved query that is gone is kept: it reports that when run, and the file stays editable.
      if (testCase.connection !== undefined && !ids.has(testCase.connection)) {
        context.addIssue({ code: 'custom', path: ['tests', index, 'connection'], message: `names no connection of this file ("${testCase.connection}")` })
      }
      if (testNames.has(testCase.name)) {
        context.addIssue({ code: 'custom', path: ['tests', index, 'name'], message: `the name "${testCase.name}" is used by two test cases` })
      }
      testNames.add(testCase.name)
    })
    const setNames = new Set<string>()
    workspace.sets?.forEach((set, index) => {
      if (set.connection !== undefined && !ids.has(set.connection)) {
        context.addIssue({ code: 'custom', path: ['sets', index, 'connection'], message: `names no connection of this file ("${set.connection}")` })
      }
      if (setNames.has(set.name)) context.addIssue({ code: 'custom', path: ['sets', index, 'name'], message: `the name "${set.name}" is used by two query sets` })
      setNames.add(set.name)
    })
  })

export type WorkspaceConnection = z.infer<typeof WorkspaceConnectionSchema>
export type SavedQuery = z.infer<typeof SavedQuerySchema>
export type Workspace = z.infer<typeof WorkspaceSchema>

export type ParseWorkspaceResult = { ok: true; workspace: Workspace } | { ok: false; message: string }

/** A workspace with nothing in it, ready to be filled and saved. */
export function emptyWorkspace(): Workspace {
  return { format: WORKSPACE_FORMAT, version: WORKSPACE_VERSION, connections: [], queries: [] }
}

/**
 * Names a file field may not have, compared without case, `_` or `-`:
 * `clientSecret`, `access_token`, `password`, `apiKey`… `tokenRequest` is the
 * connection's token request kind (json or OAuth), not a token.
 */
const SECRET_NAME = /secret|token|passw(or)?d|passphrase|apikey|credential|bearer|authorization|privatekey/
const ALLOWED_NAMES = new Set(['tokenrequest'])

function looksSecret(key: string): boolean {
  const bare = key.toLowerCase().replace(/[^a-z0-9]/g, '')
  return SECRET_NAME.test(bare) && !ALLOWED_NAMES.has(bare)
}

/**
 * The path of the first secret-looking key, or null. The names inside a
 * step's `parameters` and `context` are left alone: they are the API's own
 * parameter names, already part of the request URL the app shows and logs.
 */
export function secretLookingField(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = secretLookingField(value[index], [...path, index])
      if (found) return found
    }
    return null
  }
  if (value === null || typeof value !== 'object') return null
  const inStep = path.length >= 2 && path[path.length - 2] === 'steps'
  for (const key of Object.keys(value)) {
    if (inStep && (key === 'parameters' || key === 'context')) continue
    if (looksSecret(key)) return [...path, key]
    const found = secretLookingField((value as Record<string, unknown>)[key], [...path, key])
    if (found) return found
  }
  return null
}

function own(value: unknown, key: string | number): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
}

/**
 * zod's records leave out a `__proto__` key, but to the URL codec it is an
 * ordinary parameter name (see records.ts), so it would be lost on the next
 * save. Puts such records back as they were read, in their order; returns the
 * path of a `__proto__` whose value is not text.
 */
function keepProtoNames(workspace: Workspace, raw: unknown): (string | number)[] | null {
  const queries = own(raw, 'queries')
  for (const [q, query] of workspace.queries.entries()) {
    const steps = own(own(own(queries, q), 'request'), 'steps')
    for (const [s, step] of query.request.steps.entries()) {
      for (const name of ['parameters', 'context'] as const) {
        const record = own(own(steps, s), name)
        if (record === undefined || !Object.hasOwn(record as object, '__proto__')) continue
        const path = ['queries', q, 'request', 'steps', s, name, '__proto__']
        if (typeof own(record, '__proto__') !== 'string') return path
        ;(step as Record<string, unknown>)[name] = Object.fromEntries(Object.entries(record as Record<string, string>))
      }
    }
    // The same for the options this client does not know: `__proto__` is a name there too.
    const extra = own(own(own(own(queries, q), 'request'), 'options'), 'extra')
    if (extra !== undefined && Object.hasOwn(extra as object, '__proto__') && query.request.options.extra) {
      if (typeof own(extra, '__proto__') !== 'string') return ['queries', q, 'request', 'options', 'extra', '__proto__']
      query.request.options.extra = Object.fromEntries(Object.entries(extra as Record<string, string>))
    }
  }
  return null
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol')
  const field = formatPath(path) || '(file)'
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `${field}: is missing (expected ${issue.expected})`
  return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`
}

/** Reads a workspace file's text; `fileName` is only for the messages. */
export function parseWorkspace(text: string, fileName: string): ParseWorkspaceResult {
  const fail = (what: string): ParseWorkspaceResult => ({ ok: false, message: `"${fileName}" ${what}` })
  let input: unknown
  try {
    input = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text)
  } catch (error) {
    return fail(`is not valid JSON: ${(error as Error).message}.`)
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return fail(`is not a Query Explorer workspace: it holds no JSON object.`)
  }
  const top = input as Record<string, unknown>
  if (top.format !== WORKSPACE_FORMAT) {
    const found = top.format === undefined ? 'it has no "format"' : `its "format" is ${JSON.stringify(top.format)}`
    return fail(`is not a Query Explorer workspace: ${found}, expected "${WORKSPACE_FORMAT}".`)
  }
  if (typeof top.version === 'number' && top.version > WORKSPACE_VERSION) {
    return fail(
      `was written by a newer Query Explorer (workspace format version ${top.version}); this version reads version ${WORKSPACE_VERSION}. Update the app to open it.`,
    )
  }
  if (nestedDeeperThan(input)) return fail('nests its values too deeply to be a workspace.')
  const secret = secretLookingField(input)
  if (secret) {
    return fail(
      `holds a field that looks like a secret or a token (${formatPath(secret)}); a workspace file never holds one. Remove the field and keep the secret in the app's keychain.`,
    )
  }
  const parsed = WorkspaceSchema.safeParse(input)
  if (!parsed.success) {
    const { named, more: rest } = namedIssues(parsed.error.issues, 5)
    const shown = named.map(describeIssue).join('; ')
    const more = rest > 0 ? ` (and ${rest.toLocaleString('en-US')} more)` : ''
    return fail(`is not a valid workspace: ${shown}${more}.`)
  }
  const badProto = keepProtoNames(parsed.data, input)
  if (badProto) return fail(`is not a valid workspace: ${formatPath(badProto)}: expected string.`)
  return { ok: true, workspace: parsed.data }
}

/** Own properties in the given order, leaving out those not set. */
function ordered(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key]
  return out
}

/** Parameter and context names keep their order: it is the request's (and the URL's) order. */
function copyRecord(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record))
}

function canonicalStep(step: Step): Record<string, unknown> {
  return 'endpoint' in step
    ? { endpoint: step.endpoint, parameters: copyRecord(step.parameters) }
    : { context: copyRecord(step.context) }
}

function canonicalRequest(request: QueryRequest): Record<string, unknown> {
  return ordered(
    {
      ...request,
      steps: request.steps.map(canonicalStep),
      // The options this client does not know (`extra`) after the known ones, in their own order.
      options: ordered(request.options, [...OPTION_ORDER, 'extra']),
    },
    ['version', 'workspace', 'api', 'steps', 'responseType', 'facet', 'options'],
  )
}

const CONNECTION_KEYS = ['id', 'name', 'authUrl', 'queryUrl', 'version', 'workspace', 'api', 'config', 'clientId', 'tokenRequest', 'audience', 'facets'] as const
const FACET_KEYS = ['options', 'filter', 'parameter', 'selection', 'resetOnSearchChange'] as const

function canonicalConnection(connection: WorkspaceConnection): Record<string, unknown> {
  // No declarations is no key: a file without facets reads as it did before they existed.
  const facets = connection.facets?.length ? connection.facets.map((facet: FacetDeclaration) => ordered(facet, FACET_KEYS)) : undefined
  return ordered({ ...connection, facets }, CONNECTION_KEYS)
}
const KNOWN_TOP = ['format', 'version', 'connections', 'queries', 'tests', 'sets']
const EXPECTATION_KEYS = ['status', 'messageStartsWith', 'totalAtLeast', 'totalAtMost', 'contains', 'rankAtMost', 'absent', 'firstItem', 'durationAtMostMs', 'snapshot'] as const

function canonicalTest(testCase: TestCase): Record<string, unknown> {
  const expect = ordered(testCase.expect, EXPECTATION_KEYS)
  const snapshot = testCase.expect.snapshot
  if (snapshot) expect.snapshot = { ids: snapshot.ids, ...(snapshot.names ? { names: snapshot.names } : {}), minRbo: snapshot.minRbo }
  return ordered(
    { ...testCase, ...(testCase.request ? { request: canonicalRequest(testCase.request) } : {}), expect },
    ['name', 'query', 'connection', 'request', 'notes', 'expect'],
  )
}

const SET_KEYS = ['name', 'query', 'connection', 'request', 'notes', 'scale', 'settings', 'queries', 'judgments'] as const
const SET_QUERY_KEYS = ['id', 'text', 'notes', 'tags'] as const
const JUDGMENT_KEYS = ['query', 'item', 'grade', 'by'] as const

/**
 * A set as written: its judgments in the order of the set's queries, then by
 * item id (UTF-16 code units), so two people's edits of one file merge as
 * lines; each query and each judgment stands as a marker the serializer
 * writes on one line of its own.
 */
function canonicalSet(set: QuerySet, oneLine: (value: Record<string, unknown>) => unknown): Record<string, unknown> {
  const place = new Map(set.queries.map((query, index) => [query.id, index]))
  const judgments = [...set.judgments].sort((a, b) => place.get(a.query)! - place.get(b.query)! || (a.item < b.item ? -1 : a.item > b.item ? 1 : 0))
  return ordered(
    {
      ...set,
      ...(set.request ? { request: canonicalRequest(set.request) } : {}),
      ...(set.settings ? { settings: ordered(set.settings, ['gain', 'unjudged', 'threshold']) } : {}),
      queries: set.queries.map((query) => oneLine(ordered(query, SET_QUERY_KEYS))),
      judgments: judgments.map((judgment) => oneLine(ordered(judgment, JUDGMENT_KEYS))),
    },
    SET_KEYS,
  )
}

/**
 * How a file is laid out. `readable` is the app's own form: 2-space indent, a
 * set's query or judgment a line (a diff shows each grade changed). `compact`
 * is one line with no white space between tokens, kept for a file that was
 * read that way: rewriting it readable would make it larger (a 110,000-judgment
 * file by about 1 MiB), so a file near the size bound could no longer be saved.
 */
export type WorkspaceLayout = 'readable' | 'compact'

/** The layout a document is in: only the compact form is one line (JSON escapes a line break inside a string). */
export function layoutOf(text: string): WorkspaceLayout {
  return text.includes('\n') ? 'readable' : 'compact'
}

/**
 * The file's text: known keys in a fixed order (as in the schema), then the
 * unknown top-level keys sorted by name (UTF-16 code units), each with its
 * value as it was read; in the readable layout, 2-space indent and a
 * trailing newline; in the compact one, no white space and no final newline. The same
 * workspace always gives the same bytes. The workspace goes through the
 * schema first, so a key the schema does not name inside a connection or a
 * query is never written, and one that looks like a secret stops the save.
 */
export function serializeWorkspace(workspace: Workspace, layout: WorkspaceLayout = 'readable'): string {
  const secret = secretLookingField(workspace)
  if (secret) throw new Error(`The workspace was not saved: ${formatPath(secret)} looks like a secret or a token, and a workspace file never holds one.`)
  const parsed = WorkspaceSchema.safeParse(workspace)
  if (!parsed.success) throw new Error(`The workspace was not saved: ${parsed.error.issues.slice(0, 5).map(describeIssue).join('; ')}.`)
  const badProto = keepProtoNames(parsed.data, workspace)
  if (badProto) throw new Error(`The workspace was not saved: ${formatPath(badProto)}: expected string.`)
  const valid = parsed.data as Record<string, unknown> & Workspace
  const out: Record<string, unknown> = {
    format: WORKSPACE_FORMAT,
    version: WORKSPACE_VERSION,
    connections: valid.connections.map(canonicalConnection),
    queries: valid.queries.map((query) => ({
      name: query.name,
      connection: query.connection,
      notes: query.notes,
      request: canonicalRequest(query.request),
    })),
    ...(valid.tests ? { tests: valid.tests.map(canonicalTest) } : {}),
  }
  if (layout === 'compact') {
    if (valid.sets) out.sets = valid.sets.map((set) => canonicalSet(set, (value) => value))
    return JSON.stringify(withExtras(out, valid))
  }
  // A set's query or judgment a line: a set of thousands stays readable, and a diff shows each grade changed.
  const lines: string[] = []
  // A nonce, so that no text of the file (which may hold a NUL) can pass for a marker.
  const nonce = Math.random().toString(36).slice(2, 10)
  const marker = (index: number) => `\u0000qx-line-${nonce}:${index}`
  if (valid.sets) {
    out.sets = valid.sets.map((set) =>
      canonicalSet(set, (value) => {
        lines.push(JSON.stringify(value))
        return marker(lines.length - 1)
      }),
    )
  }
  const text = JSON.stringify(withExtras(out, valid), null, 2)
  const written = lines.length === 0 ? text : text.replace(new RegExp(`"\\\\u0000qx-line-${nonce}:(\\d+)"`, 'g'), (_, index: string) => lines[Number(index)]!)
  return `${written}\n`
}

/** `out` with the unknown top-level keys after the known ones, sorted by name. */
function withExtras(out: Record<string, unknown>, valid: Record<string, unknown>): Record<string, unknown> {
  const extras = Object.keys(valid)
    .filter((key) => !KNOWN_TOP.includes(key))
    .sort()
  // defineProperty, not assignment: an unknown key may be `__proto__`.
  for (const key of extras) Object.defineProperty(out, key, { value: valid[key], enumerable: true, writable: true, configurable: true })
  return out
}
