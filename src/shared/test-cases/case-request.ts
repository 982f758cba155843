import { itemKey, itemLabel } from '../compare/item-key'
import type { QueryRequest } from '../query/model'
import type { QueryReply } from '../query/query-reply'
import type { ResultItem } from '../responses'
import { findQuerySource } from '../workspace/query-source'
import type { RunOutcome } from './evaluate'
import { depthNeeded, needsTotal, type Expectations, type TestCase } from './test-case'

/**
 * From a test case to the request it sends, and from the answer to what the
 * expectations judge. Pure, so the app, the command line and the benchmark
 * run a case the same way.
 */

/** What a run may change of every case's request: the configuration or API under test (and the version). */
export interface TargetOverrides {
  /** The target connection's workspace, when the run moves a query to another connection. */
  workspace?: string | undefined
  api?: string | undefined
  config?: string | undefined
  version?: string | undefined
}

/** A case with its query found: the request to send, or why it cannot run. */
export interface ResolvedCase {
  name: string
  expect: Expectations
  /** The file connection the case's query belongs to. */
  connection: string | null
  request: QueryRequest | null
  error: string | null
}

interface CaseSource {
  queries: { name: string; connection: string; request: QueryRequest }[]
}

export function resolveCase(workspace: CaseSource, testCase: TestCase): ResolvedCase {
  const base = { name: testCase.name, expect: testCase.expect }
  const found = findQuerySource(workspace, testCase)
  if (!found) return { ...base, connection: null, request: null, error: `The saved query "${testCase.query}" is not in the workspace.` }
  return { ...base, connection: found.connection, request: found.request, error: null }
}

/**
 * The case's request as sent: the saved chain, asked as results (with the
 * total alongside, `results,count`, when an expectation needs it), as deep as
 * the deepest expectation, from the first result, in JSON.
 */
export function caseRequest(request: QueryRequest, expect: Expectations, overrides: TargetOverrides = {}): QueryRequest {
  return rankingRequest(request, { depth: depthNeeded(expect), total: needsTotal(expect) }, overrides)
}

/**
 * A chain asked for its top `depth` results from the first one, in JSON, on
 * a target (with the total and the statistics alongside, `results,count`,
 * when `total`): what a case, a comparison side and "Add test" send.
 */
export function rankingRequest(request: QueryRequest, want: { depth: number; total: boolean }, overrides: TargetOverrides = {}): QueryRequest {
  const { offset: _offset, format: _format, rank: _rank, column: _column, multiselect: _multiselect, ...options } = request.options
  const { facet: _facet, ...rest } = request
  return {
    ...structuredClone(rest),
    ...(overrides.workspace ? { workspace: overrides.workspace } : {}),
    ...(overrides.api ? { api: overrides.api } : {}),
    ...(overrides.version ? { version: overrides.version } : {}),
    responseType: want.total ? 'results,count' : 'results',
    options: { ...structuredClone(options), ...(overrides.config ? { config: overrides.config } : {}), count: want.depth },
  }
}

/** The service's own words of an error, without the app's "The service answered 400: " before them. */
export function serverMessage(message: string): string {
  return message.replace(/^The service answered \d{3}: /, '')
}

/** Reads a results (or results,count) answer into what the expectations judge. */
export function outcomeOf(reply: QueryReply, durationMs: number): RunOutcome {
  const body = reply.body as unknown
  const [page, statistics] = Array.isArray(body) ? (body as [unknown, unknown]) : [body, null]
  const items = ((page as { items?: ResultItem[] } | null)?.items ?? []) as ResultItem[]
  const total = (statistics as { total?: unknown } | null)?.total
  return {
    status: reply.status,
    message: null,
    total: typeof total === 'number' ? total : null,
    keys: items.map(itemKey),
    labels: items.map(itemLabel),
    firstItem: items[0] ?? null,
    durationMs,
  }
}

/** A run that got no answer, or an error status: the status (if any) and the message. */
export function failedOutcome(status: number | null, message: string, durationMs: number): RunOutcome {
  return { status, message: serverMessage(message), total: null, keys: [], labels: [], firstItem: null, durationMs }
}
