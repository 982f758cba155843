import { itemKey, itemLabel } from '../../shared/compare/item-key'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import type { ResultItem } from '../../shared/responses'
import type { QueryRanking } from '../../shared/relevance/evaluation'
import { ItemIdSchema, type SetQuery } from '../../shared/relevance/query-set'
import { setQueryPages } from '../../shared/relevance/set-template'
import { serverMessage, type TargetOverrides } from '../../shared/test-cases/case-request'
import type { QueryRunner, QueryTarget } from '../http/query-runner'

/**
 * Runs each query of a set through the app's own query runner (same tokens,
 * origin rules, deadlines and cancellation as every query), a few at a time,
 * and keeps each one's ranking. The window's Evaluation view, `query-explorer
 * eval` and the benchmark all come through here.
 */

/** What runs a set's pages: the app's query runner. */
export type PageRunner = Pick<QueryRunner, 'run'>

/** A query's ranking as an evaluation keeps it: no more of the answers than this, and never their pages. */
export interface RankedQuery {
  items: string[]
  labels: string[]
  probabilities: number[]
  /** Set when an item's probability was not a finite number (`1e999` reads as Infinity): the probabilities are then left out, saying why. */
  unusableProbability?: number
  /** Pages asked to make it. */
  pages: number
}

/**
 * What lets evaluations of one experiment share a query's ranking
 * (experiments/ranking-memo.ts): `rank` is called only when no ranking of
 * the same pages is known. `key` names the pages and what is kept of them.
 */
export type RankingMemo = (key: string, rank: () => Promise<RankedQuery>) => Promise<RankedQuery>

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
  /** Rankings shared with the other evaluations of an experiment. */
  memo?: RankingMemo | undefined
  /** Each item a query's ranking keeps, whole, as it is read (judge-items.ts keeps its attributes); never with a memo, which may not read the pages. */
  onItem?: ((query: SetQuery, item: ResultItem, key: string) => void) | undefined
}

export const DEFAULT_SET_CONCURRENCY = 4

/** An item key a kept ranking may hold: as long as a judgment's item (ItemIdSchema), so every ranked item can be judged, and the record reads back. */
const MAX_ITEM_KEY = ItemIdSchema.maxLength ?? 2_000

const count = (n: number) => n.toLocaleString('en-US')

/**
 * A ranking's items must be what a kept evaluation reads back (shared/relevance/evaluation).
 * A key longer than an item may be fails the query, naming the rule; the
 * other queries are kept.
 */
function keyProblem(key: string, rank: number): string | null {
  if (key.length <= MAX_ITEM_KEY) return null
  return `Item ${rank}'s key is ${count(key.length)} characters: an item key is at most ${count(MAX_ITEM_KEY)} characters (a judgment's item), so this ranking is not kept.`
}

/** The note a ranking whose probabilities were left out carries (and its figures with it). */
export function probabilitiesNote(rank: number): string {
  return `Probabilities left out: item ${rank}'s probability is not a finite number.`
}

export const NOT_RUN_QUERY = 'Not run: the evaluation was cancelled.'

function itemsOf(body: unknown): ResultItem[] {
  const page = Array.isArray(body) ? body[0] : body
  const items = (page as { items?: unknown } | null)?.items
  return Array.isArray(items) ? (items as ResultItem[]) : []
}

/**
 * A query's pages one after another (a short page ends it), each read into
 * the ranking as it comes and let go: at most `depth` items are kept, and
 * of a page no more than the count it asked for, whatever the server sent.
 */
async function rankPages(options: RunSetOptions, query: SetQuery, pages: readonly QueryRequest[], requestId: string): Promise<RankedQuery> {
  const ranked: RankedQuery = { items: [], labels: [], probabilities: [], pages: 0 }
  const seen = new Set<string>()
  for (const page of pages) {
    const asked = page.options.count ?? 0
    const found = itemsOf((await options.runner.run(requestId, options.target, page, { fresh: true, signal: options.signal })).body)
    ranked.pages++
    const usable = Math.min(found.length, asked)
    for (let i = 0; i < usable && ranked.items.length < options.depth; i++) {
      const item = found[i]!
      const key = itemKey(item)
      // An item the answer repeats counts at its first place only (as the metrics read a ranking).
      if (seen.has(key)) continue
      seen.add(key)
      const problem = keyProblem(key, ranked.items.length + 1)
      if (problem) throw new Error(problem)
      ranked.items.push(key)
      // JSON reads `1e999` as Infinity, which a record would keep as null: the first such item is remembered and the probabilities are not kept.
      if (!Number.isFinite(item.probability)) ranked.unusableProbability ??= ranked.items.length
      ranked.probabilities.push(item.probability)
      if (ranked.labels.length < options.labelDepth) ranked.labels.push(itemLabel(item))
      options.onItem?.(query, item, key)
    }
    if (found.length < asked || ranked.items.length >= options.depth) break
  }
  return ranked
}

/** One query's ranking, or why it failed. A cancellation is thrown. */
async function runQuery(options: RunSetOptions, query: SetQuery, requestId: string): Promise<QueryRanking> {
  const started = performance.now()
  try {
    const pages = setQueryPages(options.template, query.text, options.depth, options.overrides)
    const rank = () => rankPages(options, query, pages, requestId)
    const { target } = options
    const ranked = options.memo
      ? await options.memo(`${target.key}\u0000${target.queryUrl}\u0000${target.version ?? ''}\u0000${options.depth}\u0000${options.labelDepth}\u0000${JSON.stringify(pages[0])}`, rank)
      : await rank()
    const { items, labels, probabilities, unusableProbability } = ranked
    const kept = unusableProbability === undefined ? { probabilities } : { note: probabilitiesNote(unusableProbability) }
    return { id: query.id, text: query.text, items, labels, ...kept, error: null, durationMs: performance.now() - started }
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
