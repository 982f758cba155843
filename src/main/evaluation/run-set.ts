import { itemKey, itemLabel } from '../../shared/compare/item-key'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import type { ResultItem } from '../../shared/responses'
import type { QueryRanking } from '../../shared/relevance/evaluation'
import type { SetQuery } from '../../shared/relevance/query-set'
import { setQueryPages } from '../../shared/relevance/set-template'
import { serverMessage, type TargetOverrides } from '../../shared/test-cases/case-request'
import type { QueryRunner, QueryTarget } from '../http/query-runner'

/**
 * Runs each query of a set through the app's own query runner (same tokens,
 * origin rules, deadlines and cancellation as every query), a few at a time,
 * and keeps each one's ranking. The window's Evaluation view, `query-explorer
 * eval` and the benchmark all come through here.
 */

/** What runs a set's pages: the app's query runner, or one that remembers answers within an experiment (experiments/page-memo.ts). */
export type PageRunner = Pick<QueryRunner, 'run'>

export interface RunSetOptions {
  runner: PageRunner
  target: QueryTarget
  template: QueryRequest
  queries: readonly SetQuery[]
  depth: number
  /** How many items keep their label (what Judge and the table show). */
  labelDepth: number
  overrides?: TargetOverrides | undefined
  /** Queries run at once (default 4): the service's quota and the machine decide. */
  concurrency?: number | undefined
  signal?: AbortSignal | undefined
  /** Makes the runner's request ids unique to this run. */
  runId: string
  /** Called as each query ends, in the order they end. */
  onQuery?: (ranking: QueryRanking, index: number) => void
}

export const DEFAULT_SET_CONCURRENCY = 4
export const NOT_RUN_QUERY = 'Not run: the evaluation was cancelled.'

function itemsOf(body: unknown): ResultItem[] {
  const page = Array.isArray(body) ? body[0] : body
  const items = (page as { items?: unknown } | null)?.items
  return Array.isArray(items) ? (items as ResultItem[]) : []
}

/** One query: its pages one after another (a short page ends it), or why it failed. A cancellation is thrown. */
async function runQuery(options: RunSetOptions, query: SetQuery, requestId: string): Promise<QueryRanking> {
  const started = performance.now()
  const items: string[] = []
  const labels: string[] = []
  const probabilities: number[] = []
  const seen = new Set<string>()
  try {
    for (const page of setQueryPages(options.template, query.text, options.depth, options.overrides)) {
      const reply = await options.runner.run(requestId, options.target, page, { fresh: true, signal: options.signal })
      const found = itemsOf(reply.body)
      for (const item of found) {
        const key = itemKey(item)
        // An item the answer repeats counts at its first place only (as the metrics read a ranking).
        if (seen.has(key)) continue
        seen.add(key)
        items.push(key)
        probabilities.push(item.probability)
        if (labels.length < options.labelDepth) labels.push(itemLabel(item))
      }
      if (found.length < (page.options.count ?? 0)) break
    }
    return { id: query.id, text: query.text, items, labels, probabilities, error: null, durationMs: performance.now() - started }
  } catch (error) {
    if (error instanceof ExplorerError && error.code === 'cancelled') throw error
    const message = error instanceof Error ? serverMessage(error.message) : String(error)
    return { id: query.id, text: query.text, items: [], labels: [], error: message, durationMs: performance.now() - started }
  }
}

/** Every query's ranking, in the set's order; queries a cancellation kept from running say so. */
export async function runSetQueries(options: RunSetOptions): Promise<QueryRanking[]> {
  const { queries } = options
  const out: QueryRanking[] = new Array(queries.length)
  const concurrency = Math.max(1, Math.min(16, options.concurrency ?? DEFAULT_SET_CONCURRENCY))
  let next = 0
  const worker = async () => {
    while (next < queries.length && !options.signal?.aborted) {
      const index = next++
      const query = queries[index]!
      let ranking: QueryRanking
      try {
        ranking = await runQuery(options, query, `${options.runId}:${index}`)
      } catch {
        ranking = { id: query.id, text: query.text, items: [], labels: [], error: NOT_RUN_QUERY, durationMs: 0 }
      }
      out[index] = ranking
      options.onQuery?.(ranking, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, queries.length) }, worker))
  for (let index = 0; index < queries.length; index++) {
    out[index] ??= { id: queries[index]!.id, text: queries[index]!.text, items: [], labels: [], error: NOT_RUN_QUERY, durationMs: 0 }
  }
  return out
}
