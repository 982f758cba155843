import { itemLabel } from '../../shared/compare/item-key'
import type { QueryRequest } from '../../shared/query/model'
import type { ResultItem } from '../../shared/responses'
import { MAX_JUDGE_DEPTH, type Judge } from '../../shared/relevance/llm-judge'
import type { QueryRanking } from '../../shared/relevance/evaluation'
import type { SetQuery } from '../../shared/relevance/query-set'
import type { TargetOverrides } from '../../shared/test-cases/case-request'
import { runSetQueries, type PageRunner } from '../evaluation/run-set'
import type { QueryTarget } from '../http/query-runner'
import type { JudgeTask } from './judge-plan'

/**
 * The items a judge grades, fetched as an evaluation fetches a set's
 * rankings (run-set.ts: the set's template filled with each query's text,
 * its pages through the app's own query runner, a few queries at a time,
 * the same tokens, deadlines and cancellation), keeping of each item what
 * the prompt may show: the first column's attributes (the judge's fields,
 * or the first MAX_SHOWN_ATTRIBUTES), each value cut to the judge's
 * maxFieldChars and all of them to MAX_ITEM_CHARS as they are read, so a run
 * holds a bounded amount whatever the service sends.
 */

export interface JudgeItemsInput {
  runner: PageRunner
  target: QueryTarget
  template: QueryRequest
  overrides?: TargetOverrides | undefined
  queries: readonly SetQuery[]
  /** Each query's top `depth` (at most MAX_JUDGE_DEPTH). */
  depth: number
  judge: Pick<Judge, 'fields' | 'maxFieldChars'>
  concurrency?: number | undefined
  signal?: AbortSignal | undefined
  runId: string
  /** As each query's items are in: how many queries are done, of how many. */
  onQuery?: ((done: number, total: number) => void) | undefined
}

export interface JudgeItems {
  /** Every item to judge, in the set's order of queries, then rank. */
  tasks: JudgeTask[]
  /** Every item fetched, by query id then item: what few-shot examples may show (few-shot.ts). */
  contents: Map<string, Map<string, Record<string, unknown>>>
  /** Queries whose results could not be fetched, with why (a cancellation says so). */
  failed: { query: string; reason: string }[]
  /** Each query's ranking (item keys, no labels), as an evaluation keeps it: what a judge-next queue is computed from. */
  rankings: QueryRanking[]
}

/**
 * With no fields named, the prompt shows an item's first 30 attributes (in
 * the item's order): a service may send hundreds, and each would go into
 * every prompt, the few-shot examples' too.
 */
export const MAX_SHOWN_ATTRIBUTES = 30
/** At most this many characters of an item's fields in a prompt, all fields together (maxFieldChars bounds each one). */
export const MAX_ITEM_CHARS = 20_000

/** A value as the prompt may show it, cut as it is kept: text and JSON to one character more than the judge shows (so the prompt still marks it cut). */
function boundedValue(value: unknown, max: number): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).replace(/\s+/g, ' ').trim()
  return text.length > max + 1 ? text.slice(0, max + 1) : text
}

/**
 * What the prompt may show of an item: the first tuple column's attributes
 * (the column itself where it has none), only the judge's fields when it
 * names some, else the first MAX_SHOWN_ATTRIBUTES; a row of plain values (a
 * triple) is its text, as `value`. The fields together hold at most
 * MAX_ITEM_CHARS characters: the one that reaches the bound is cut (marked
 * with "…") and those after it are left out.
 */
export function itemFields(item: Pick<ResultItem, 'tuple'>, judge: Pick<Judge, 'fields' | 'maxFieldChars'>): Record<string, unknown> {
  const tuple = item.tuple
  const first = Array.isArray(tuple) ? tuple[0] : tuple['1']
  let source: Record<string, unknown>
  if (first !== null && typeof first === 'object') {
    const attributes = (first as { attributes?: unknown }).attributes
    source = attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : (first as Record<string, unknown>)
  } else source = { value: itemLabel(item) }
  const names = judge.fields.length > 0 ? judge.fields.filter((name) => Object.hasOwn(source, name)) : Object.keys(source).slice(0, MAX_SHOWN_ATTRIBUTES)
  const out: Record<string, unknown> = {}
  let room = MAX_ITEM_CHARS
  for (const name of names) {
    // Each field's line is "name: value" and a line break.
    room -= name.length + 3
    if (room <= 1) break
    const value = boundedValue(source[name], judge.maxFieldChars)
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    if (text.length <= room) {
      out[name] = value
      room -= text.length
      continue
    }
    out[name] = `${text.slice(0, room - 1)}…`
    break
  }
  return out
}

/**
 * The tasks of a judge-next queue (judge-next.ts) among items fetched: the
 * pairs it names, in its order; those the results did not hold are `missing`
 * (a query that failed to fetch is in `failed` already).
 */
export function queueTasks(items: Pick<JudgeItems, 'contents' | 'failed'>, queries: readonly SetQuery[], pairs: readonly { query: string; item: string }[]): { tasks: JudgeTask[]; missing: { query: string; item: string }[] } {
  const texts = new Map(queries.map((query) => [query.id, query.text]))
  const failed = new Set(items.failed.map((failure) => failure.query))
  const tasks: JudgeTask[] = []
  const missing: { query: string; item: string }[] = []
  for (const pair of pairs) {
    const fields = items.contents.get(pair.query)?.get(pair.item)
    if (fields) tasks.push({ query: pair.query, queryText: texts.get(pair.query) ?? '', item: pair.item, fields })
    else if (!failed.has(pair.query)) missing.push(pair)
  }
  return { tasks, missing }
}

/**
 * The items of a judge-next queue of a kept evaluation: only the queries it
 * names are run, to `depth` (deep enough for the ranks it lists), and only
 * the items it names kept as tasks. Every item fetched may still serve as a
 * few-shot example.
 */
export async function fetchQueueItems(input: JudgeItemsInput & { pairs: readonly { query: string; item: string }[] }): Promise<JudgeItems & { missing: { query: string; item: string }[] }> {
  const named = new Set(input.pairs.map((pair) => pair.query))
  const queries = input.queries.filter((query) => named.has(query.id))
  const fetched = await fetchJudgeItems({ ...input, queries })
  return { ...fetched, ...queueTasks(fetched, queries, input.pairs) }
}

/** Each query's top `depth` items, with the fields the judge may show. */
export async function fetchJudgeItems(input: JudgeItemsInput): Promise<JudgeItems> {
  const depth = Math.max(1, Math.min(MAX_JUDGE_DEPTH, Math.floor(input.depth)))
  const contents = new Map<string, Map<string, Record<string, unknown>>>()
  let done = 0
  const rankings = await runSetQueries({
    runner: input.runner,
    target: input.target,
    template: input.template,
    queries: input.queries,
    depth,
    labelDepth: 0,
    overrides: input.overrides,
    concurrency: input.concurrency,
    signal: input.signal,
    runId: input.runId,
    onItem: (query, item, key) => {
      let items = contents.get(query.id)
      if (!items) contents.set(query.id, (items = new Map()))
      items.set(key, itemFields(item, input.judge))
    },
    onQuery: () => input.onQuery?.(++done, input.queries.length),
  })
  const failed: JudgeItems['failed'] = []
  const tasks: JudgeTask[] = []
  rankings.forEach((ranking, index) => {
    if (ranking.error !== null) {
      // A query that failed part way keeps none of what it read.
      failed.push({ query: ranking.id, reason: ranking.error })
      contents.delete(ranking.id)
      return
    }
    const fields = contents.get(ranking.id)
    const queryText = input.queries[index]!.text
    for (const item of ranking.items) tasks.push({ query: ranking.id, queryText, item, fields: fields!.get(item)! })
  })
  return { tasks, contents, failed, rankings }
}
