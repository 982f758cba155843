import { OPTION_ORDER, type QueryRequest, type Step } from '../query/model'
import type { FacetDeclaration } from '../query/facet-declaration'
import { formatPath } from '../query/request-json'
import type { QuerySet } from '../relevance/query-set'
import type { TestCase } from '../test-cases/test-case'
import { describeIssue, keepProtoNames } from './workspace-parse'
import { WORKSPACE_FORMAT, WORKSPACE_VERSION, WorkspaceSchema, type Workspace, type WorkspaceConnection } from './workspace-schema'
import { secretLookingField } from './workspace-secrets'

/** Writing a workspace file's text: byte-stable, in the readable or the compact layout. */

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
  return serializeParsed(parsed.data, layout)
}

/**
 * serializeWorkspace of a workspace that is already the schema's output (what
 * parseWorkspace gives): the schema is not run a second time (at 200,000
 * judgments it is about half the cost). Anything else goes through serializeWorkspace.
 */
export function serializeParsed(workspace: Workspace, layout: WorkspaceLayout = 'readable'): string {
  const valid = workspace as Record<string, unknown> & Workspace
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
