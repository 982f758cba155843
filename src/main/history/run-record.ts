import { randomUUID } from 'node:crypto'
import type { HistoryEntry, QueryReply } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import { buildSentUrl } from '../../shared/query/url'

/** What the History needs to know of the connection a run went to. */
export interface RunConnection {
  id: string
  name: string
  queryUrl: string
  version?: string | undefined
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const intOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null)

/** The total an answer carries (statistics, count, the second half of results,count), else null. */
export function totalOf(body: unknown): number | null {
  if (Array.isArray(body)) return isRecord(body[1]) ? intOrNull(body[1].total) : null
  return isRecord(body) ? intOrNull(body.total) : null
}

/** How many items (rows, options) an answer holds, else null. */
export function itemCountOf(body: unknown): number | null {
  const page = Array.isArray(body) ? body[0] : body
  if (!isRecord(page)) return null
  if (Array.isArray(page.items)) return page.items.length
  if (Array.isArray(page.options)) return page.options.length
  return null
}

/** The URL the runner sends for this request (the same rule as QueryRunner.run, which never puts a token in it). */
export function sentUrl(connection: RunConnection | null, request: QueryRequest): string {
  if (!connection) return ''
  try {
    return buildSentUrl(connection.queryUrl, connection.version, request)
  } catch {
    return ''
  }
}

export interface RunOutcome {
  startedAt: number
  durationMs: number
  connectionId: string
  connection: RunConnection | null
  request: QueryRequest
  reply?: QueryReply
  error?: unknown
}

/** Why a run that got no answer failed, as the IPC reply said it. */
function failureOf(run: Pick<RunOutcome, 'reply' | 'error'>): ExplorerError | null {
  if (run.reply) return null
  return run.error instanceof ExplorerError ? run.error : new ExplorerError('internal', run.error instanceof Error ? run.error.message : String(run.error))
}

/** Whether the run was stopped on its way (Cancel, or Load more stopping pages past the end of the rows). */
export const wasCancelled = (run: Pick<RunOutcome, 'reply' | 'error'>): boolean => failureOf(run)?.code === 'cancelled'

export function historyEntry(run: RunOutcome): HistoryEntry {
  const { request, reply } = run
  const failure = failureOf(run)
  return {
    id: randomUUID(),
    at: new Date(run.startedAt).toISOString(),
    connectionId: run.connectionId,
    connectionName: run.connection?.name ?? run.connectionId,
    api: request.api,
    config: request.options.config ?? 'default',
    url: reply?.url ?? sentUrl(run.connection, request),
    responseType: request.responseType,
    status: reply ? reply.status : (failure?.extra.status ?? null),
    error: failure ? { code: failure.code, message: failure.message } : null,
    total: reply ? totalOf(reply.body) : null,
    itemCount: reply ? itemCountOf(reply.body) : null,
    pages: 1,
    durationMs: Math.round(run.durationMs),
    request,
  }
}

/**
 * The run's entry with one more of its pages (Load more's): the rows it
 * brought and `addedMs` of time on the way. A page that failed marks the run
 * failed, as the window shows it, with the rows before it still counted; the
 * URL, time and request stay the run's first page's, which Open in editor restores.
 */
export function withPage(entry: HistoryEntry, page: RunOutcome, addedMs: number): HistoryEntry {
  const failure = failureOf(page)
  const durationMs = Math.round(entry.durationMs + addedMs)
  if (failure) return { ...entry, status: failure.extra.status ?? null, error: { code: failure.code, message: failure.message }, durationMs }
  const items = itemCountOf(page.reply!.body)
  return {
    ...entry,
    total: entry.total ?? totalOf(page.reply!.body),
    itemCount: items === null ? entry.itemCount : (entry.itemCount ?? 0) + items,
    // A page past the end of the rows (asked before the end was known) brought none: it covers nothing.
    pages: entry.pages + (items ? 1 : 0),
    durationMs,
  }
}
