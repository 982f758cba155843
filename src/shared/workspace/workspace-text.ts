import { OPTION_ORDER, type QueryRequest, type Step } from '../query/model'
import type { FacetDeclaration } from '../query/facet-declaration'
import { formatPath } from '../query/request-json'
import type { Judgment, QuerySet } from '../relevance/query-set'
import { ratersOf, type Rater } from '../relevance/raters'
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
const KNOWN_TOP = ['format', 'version', 'connections', 'queries', 'tests', 'sets', 'judges']
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

const SET_KEYS = ['name', 'query', 'connection', 'request', 'notes', 'scale', 'settings', 'raters', 'queries', 'judgments'] as const
const SET_QUERY_KEYS = ['id', 'text', 'notes', 'tags'] as const
const JUDGMENT_KEYS = ['query', 'item', 'rater', 'grade', 'explanation', 'promptDigest'] as const
const RATER_KEYS = ['name', 'kind'] as const
const JUDGE_KEYS = [
  'name',
  'provider',
  'baseUrl',
  'model',
  'apiVersion',
  'temperature',
  'seed',
  'prompt',
  'fields',
  'maxFieldChars',
  'scale',
  'structured',
  'fewShot',
  'fewShotSeed',
  'depth',
  'concurrency',
  'notes',
] as const

/**
 * A set as written: its judgments in the order of the set's queries, then by
 * item id, then by rater (UTF-16 code units), so two people's edits of one
 * file merge as lines; its raters a line each, by name, once the set lists
 * any (ratersOf: those its judgments name then join the list). A set that
 * lists none (a file of the previous format, or only people's grades) keeps
 * none: its raters are people, and the file stays as it was read. Its queries and its judgments each stand in the tree as one marker
 * (`list`, with how an entry is written), which walkText replaces with their
 * text, an entry a line in the readable layout: 200,000 judgments are not
 * 200,000 values of the tree, and the order is found by query first (a
 * bucket each), then by item.
 */
function canonicalSet(set: QuerySet, list: (entries: readonly unknown[], text: (entry: never) => string) => unknown): Record<string, unknown> {
  return ordered(
    {
      ...set,
      ...(set.request ? { request: canonicalRequest(set.request) } : {}),
      ...(set.settings ? { settings: ordered(set.settings, ['gain', 'unjudged', 'threshold', 'aggregate']) } : {}),
      ...(set.raters ? { raters: list(sortedRaters(set), (rater: Rater) => JSON.stringify(ordered(rater, RATER_KEYS))) } : {}),
      queries: list(set.queries, (query: QuerySet['queries'][number]) => JSON.stringify(ordered(query, SET_QUERY_KEYS))),
      judgments: list(sortedJudgments(set), judgmentText),
    },
    SET_KEYS,
  )
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byItem = (a: Judgment, b: Judgment) => byText(a.item, b.item) || byText(a.rater, b.rater)

function sortedRaters(set: QuerySet): Rater[] {
  return ratersOf(set).sort((a, b) => byText(a.name, b.name))
}

/** The set's judgments in the order of its queries, then by item, then by rater: as a stable sort by (query's place, item, rater) gives them. */
function sortedJudgments(set: QuerySet): Judgment[] {
  const place = new Map(set.queries.map((query, index) => [query.id, index]))
  const buckets: Judgment[][] = set.queries.map(() => [])
  for (const judgment of set.judgments) {
    const at = place.get(judgment.query)
    // A judgment naming no query of the set (the schema refuses one): the comparison of old, whatever order it gives.
    if (at === undefined) return [...set.judgments].sort((a, b) => place.get(a.query)! - place.get(b.query)! || byItem(a, b))
    buckets[at]!.push(judgment)
  }
  const sorted: Judgment[] = []
  for (const bucket of buckets) for (const judgment of bucket.sort(byItem)) sorted.push(judgment)
  return sorted
}

/** JSON.stringify(ordered(judgment, JUDGMENT_KEYS)), built by hand for the schema's judgment (the common case by far). */
function judgmentText(judgment: Judgment): string {
  const { query, item, rater, grade } = judgment
  // A judge's grade (explanation, prompt digest) is rare beside people's: written the general way.
  if (
    typeof query !== 'string' ||
    typeof item !== 'string' ||
    typeof rater !== 'string' ||
    typeof grade !== 'number' ||
    !Number.isFinite(grade) ||
    judgment.explanation !== undefined ||
    judgment.promptDigest !== undefined
  ) {
    return JSON.stringify(ordered(judgment, JUDGMENT_KEYS))
  }
  return `{"query":${JSON.stringify(query)},"item":${JSON.stringify(item)},"rater":${JSON.stringify(rater)},"grade":${grade}}`
}

/** Text JSON.stringify writes as it is, between quotes (no quote, backslash, control character or surrogate). */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

/**
 * Where judgmentText(judgment) ends if `text` holds it at `at`, else -1;
 * found without making the line (a string made is garbage: comparing the
 * 200,000 lines of a file costs about a third of making them).
 */
function judgmentAt(text: string, at: number, judgment: Judgment): number {
  const { query, item, rater, grade } = judgment
  if (
    typeof query !== 'string' ||
    typeof item !== 'string' ||
    typeof rater !== 'string' ||
    !Number.isInteger(grade) ||
    Object.is(grade, -0) ||
    !PLAIN.test(query) ||
    !PLAIN.test(item) ||
    !PLAIN.test(rater) ||
    judgment.explanation !== undefined ||
    judgment.promptDigest !== undefined
  ) {
    const line = judgmentText(judgment)
    return text.startsWith(line, at) ? at + line.length : -1
  }
  at = after(text, after(text, after(text, after(text, at, '{"query":"'), query), '","item":"'), item)
  at = after(text, after(text, after(text, at, '","rater":"'), rater), '","grade":')
  return after(text, after(text, at, GRADE_TEXT[grade] ?? String(grade)), '}')
}

/** Where `part` ends if `text` holds it at `at` (-1: not found before), else -1. */
function after(text: string, at: number, part: string): number {
  return at >= 0 && text.startsWith(part, at) ? at + part.length : -1
}

/** The grades a scale may hold, as text: made once, not once a judgment. */
const GRADE_TEXT = Array.from({ length: 101 }, (_, grade) => String(grade))

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
  const pieces: string[] = []
  walkText(workspace, layout, {
    text: (piece) => void pieces.push(piece),
    entry: (entry, text) => void pieces.push(text(entry as never)),
  })
  // Put together in one join: a 16 MiB text copied once, not once a step (each copy of that size is old-generation garbage).
  return pieces.join('')
}

/**
 * Whether `text` is serializeParsed(workspace, layout) to the character,
 * found without making that text: a file the app wrote, read back, is its own
 * text (file-worker.ts takes its layout, size and digest from it).
 */
export function isTextOf(text: string, workspace: Workspace, layout: WorkspaceLayout): boolean {
  let at = 0
  const same = walkText(workspace, layout, {
    text: (piece) => {
      if (!text.startsWith(piece, at)) return false
      at += piece.length
      return true
    },
    entry: (entry, write) => {
      if (write === judgmentText) {
        at = judgmentAt(text, at, entry as Judgment)
        return at >= 0
      }
      const piece = write(entry as never)
      if (!text.startsWith(piece, at)) return false
      at += piece.length
      return true
    },
  })
  return same && at === text.length
}

/**
 * The file's text, in order, to `out`: pieces of the tree's text, and each
 * entry of a set's lists with how it is written. Stops when `out` answers false.
 */
function walkText(
  workspace: Workspace,
  layout: WorkspaceLayout,
  out: { text(piece: string): boolean | void; entry(entry: unknown, text: (entry: never) => string): boolean | void },
): boolean {
  const valid = workspace as Record<string, unknown> & Workspace
  const top: Record<string, unknown> = {
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
  // A nonce, so that no text of the file (which may hold a NUL) can pass for a marker.
  const nonce = Math.random().toString(36).slice(2, 10)
  const lists: { entries: readonly unknown[]; text: (entry: never) => string }[] = []
  // A list with no entry is written as the serializer writes it ([]); another stands as one marker, replaced below.
  const list = (entries: readonly unknown[], text: (entry: never) => string) => (entries.length === 0 ? [] : [`\u0000qx-list-${nonce}:${lists.push({ entries, text }) - 1}`])
  if (valid.sets) top.sets = valid.sets.map((set) => canonicalSet(set, list))
  if (valid.judges) top.judges = valid.judges.map((judge) => ordered(judge, JUDGE_KEYS))
  const compact = layout === 'compact'
  // Readable: a set's query or judgment a line (a set of thousands stays readable, and a diff shows each grade changed), at the depth of a set's list's entries.
  const separator = compact ? ',' : ',\n        '
  const tree = compact ? JSON.stringify(withExtras(top, valid)) : JSON.stringify(withExtras(top, valid), null, 2)
  let from = 0
  for (const marker of tree.matchAll(new RegExp(`"\\\\u0000qx-list-${nonce}:(\\d+)"`, 'g'))) {
    if (out.text(tree.slice(from, marker.index)) === false) return false
    const { entries, text } = lists[Number(marker[1])]!
    for (let index = 0; index < entries.length; index++) {
      if (index > 0 && out.text(separator) === false) return false
      if (out.entry(entries[index], text) === false) return false
    }
    from = marker.index + marker[0].length
  }
  if (out.text(from === 0 ? tree : tree.slice(from)) === false) return false
  return compact || out.text('\n') !== false
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
