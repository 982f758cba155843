import type { Evaluation } from './evaluation'
import { seededRandom, textSeed } from '../seeded-random'

/**
 * The Judge dialog's walk, as pure state: the unrated items of each query's
 * top k, query by query in the set's order, the items of a query in a
 * shuffled order (so a person does not read the engine's ranking into them),
 * skipping and going back, and how much is rated. The dialog asks for the
 * queries' results and saves the grades; every step here is a new value, so the walk
 * is tested without a window.
 */

/** How deep Judge (and the grid's rating banner) look when no evaluation says: nDCG@10's and Coverage@10's k. */
export const DEFAULT_JUDGE_DEPTH = 10

/** The depth to judge to: the evaluation shown, when it is of this set, else 10. */
export function judgeDepthFor(shown: Pick<Evaluation, 'set' | 'judgeDepth'> | null | undefined, setName: string | null | undefined): number {
  return shown && setName !== null && setName !== undefined && shown.set === setName ? shown.judgeDepth : DEFAULT_JUDGE_DEPTH
}

/** The list in an order fixed by `seed` (Fisher–Yates): the same seed, the same order, every time. */
export function seededShuffle<T>(list: readonly T[], seed: string): T[] {
  const out = [...list]
  const next = seededRandom(textSeed(seed))
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** A query's seed: its set and its id, so a dialog opened again shows the items in the order it showed them before. */
export function judgeSeed(setName: string, queryId: string): string {
  return `${setName}\u0000${queryId}`
}

export interface JudgeQuery {
  id: string
  text: string
  /**
   * The top k keys the last evaluation of the set found, if any: what the
   * progress counts for the query until its own results come.
   */
  preview?: readonly string[] | undefined
  /**
   * The items to walk of this query, when the walk is of given (query, item)
   * pairs (pairWalk): these, shuffled, in place of its whole top k.
   */
  items?: readonly string[] | undefined
}

/** One item of one query to judge: what What to judge next queues (judge-next.ts). */
export interface JudgePair {
  query: string
  item: string
}

/**
 * The walk's queries for given (query, item) pairs: a query each, in the
 * order its first pair comes (the queue's, most telling first), holding its
 * listed items; a pair repeated is walked once. `textOf` gives a query's
 * text (a query it knows nothing of is left out: gone from the set).
 */
export function pairWalk(pairs: readonly JudgePair[], textOf: (queryId: string) => string | undefined): JudgeQuery[] {
  const byQuery = new Map<string, Set<string>>()
  for (const { query, item } of pairs) {
    if (textOf(query) === undefined) continue
    let items = byQuery.get(query)
    if (!items) byQuery.set(query, (items = new Set()))
    items.add(item)
  }
  return [...byQuery].map(([id, items]) => ({ id, text: textOf(id)!, preview: [...items], items: [...items] }))
}

/** How far a query's results are: not asked yet, asked, here (its top k, or its given items, and its unrated items in walking order), or failed. */
export type QueryLoad =
  | { state: 'waiting' }
  | { state: 'loading' }
  | { state: 'ready'; top: readonly string[]; order: readonly string[] }
  | { state: 'failed'; error: string }

/** A place in the walk: a query (by index) and an item of its order. `query` equal to the number of queries: past the end. */
export interface Position {
  query: number
  item: number
}

export interface JudgeQueue {
  queries: readonly JudgeQuery[]
  loads: readonly QueryLoad[]
  at: Position
  /** The items shown before, most recent last: where Back goes. */
  history: readonly Position[]
}

/** Whether a query's item has a grade now (the set's judgments change as the walk goes). */
export type IsRated = (queryId: string, item: string) => boolean

/** What the walk shows: an item, a query whose results are on their way, or the end. */
export type Current =
  | { kind: 'item'; query: number; item: number; key: string }
  | { kind: 'fetching'; query: number }
  | { kind: 'end' }

export function createQueue(queries: readonly JudgeQuery[]): JudgeQueue {
  return { queries, loads: queries.map(() => ({ state: 'waiting' })), at: { query: 0, item: 0 }, history: [] }
}

function withLoad(queue: JudgeQueue, index: number, load: QueryLoad): JudgeQueue {
  return { ...queue, loads: queue.loads.map((each, at) => (at === index ? load : each)) }
}

export function queryLoading(queue: JudgeQueue, index: number): JudgeQueue {
  return withLoad(queue, index, { state: 'loading' })
}

/**
 * A query's top k arrived (its keys in rank order): its walking order is the
 * whole top k shuffled by `seed`, then the rated items taken out, so the
 * items left keep their order from one opening to the next. A query of
 * given items (pairWalk) walks those, whether its results hold them or not
 * (the results are what the item is shown from), shuffled the same way.
 */
export function queryLoaded(queue: JudgeQueue, index: number, top: readonly string[], seed: string, isRated: IsRated): JudgeQueue {
  const query = queue.queries[index]
  if (query === undefined) return queue
  const id = query.id
  const unique = [...new Set(query.items ?? top)]
  const order = seededShuffle(unique, seed).filter((key) => !isRated(id, key))
  return settle(withLoad(queue, index, { state: 'ready', top: unique, order }))
}

/** A query failed: it shows its error and the walk passes it. */
export function queryFailed(queue: JudgeQueue, index: number, error: string): JudgeQueue {
  return settle(withLoad(queue, index, { state: 'failed', error }))
}

/**
 * Moves on from `from` (included) to the first item to show: past failed
 * queries and queries whose items are all seen, and, with `isRated`, past
 * items rated meanwhile. Stops at a query whose results are not here yet.
 */
function forward(queue: JudgeQueue, from: Position, isRated?: IsRated): Position {
  let { query, item } = from
  while (query < queue.queries.length) {
    const load = queue.loads[query]!
    if (load.state === 'waiting' || load.state === 'loading') return { query, item }
    if (load.state === 'ready' && item < load.order.length) {
      if (!isRated?.(queue.queries[query]!.id, load.order[item]!)) return { query, item }
      item++
      continue
    }
    query++
    item = 0
  }
  return { query: queue.queries.length, item: 0 }
}

/** The walk where it can show something: called as results arrive (the item shown stays, even rated). */
function settle(queue: JudgeQueue): JudgeQueue {
  const at = forward(queue, queue.at)
  return at.query === queue.at.query && at.item === queue.at.item ? queue : { ...queue, at }
}

export function current(queue: JudgeQueue): Current {
  const { query, item } = queue.at
  if (query >= queue.queries.length) return { kind: 'end' }
  const load = queue.loads[query]!
  if (load.state === 'ready' && item < load.order.length) return { kind: 'item', query, item, key: load.order[item]! }
  return { kind: 'fetching', query }
}

/** On from the item shown (rated or skipped) to the next unrated one; the item shown is where Back returns. */
export function next(queue: JudgeQueue, isRated: IsRated): JudgeQueue {
  const shown = current(queue)
  if (shown.kind !== 'item') return queue
  return { ...queue, at: forward(queue, { query: shown.query, item: shown.item + 1 }, isRated), history: [...queue.history, queue.at] }
}

export function canGoBack(queue: JudgeQueue): boolean {
  return queue.history.length > 0
}

/** Back to the item shown before (rated or not: its grade can be changed). */
export function back(queue: JudgeQueue): JudgeQueue {
  const previous = queue.history.at(-1)
  if (!previous) return queue
  return { ...queue, at: previous, history: queue.history.slice(0, -1) }
}

/** From the first query again, through the items still unrated (those skipped): once the walk has reached its end. */
export function again(queue: JudgeQueue, isRated: IsRated): JudgeQueue {
  return { ...queue, at: forward(queue, { query: 0, item: 0 }, isRated), history: [] }
}

/**
 * The queries whose results to ask for now: the one the walk is at, and the
 * next one that may have items to show (one ahead, fetched while the person
 * judges), each only if not asked yet.
 */
export function toFetch(queue: JudgeQueue, isRated: IsRated): number[] {
  const start = queue.at.query
  if (start >= queue.queries.length) return []
  const wanted = [start]
  for (let index = start + 1; index < queue.queries.length; index++) {
    const load = queue.loads[index]!
    // A query with nothing left to show is passed over: the one after it is the next the person sees.
    if (load.state === 'failed') continue
    if (load.state === 'ready' && unratedOf(queue.queries[index]!.id, load.top, isRated) === 0) continue
    wanted.push(index)
    break
  }
  return wanted.filter((index) => queue.loads[index]!.state === 'waiting')
}

const unratedOf = (id: string, keys: readonly string[], isRated: IsRated) => keys.filter((key) => !isRated(id, key)).length

export interface QueryProgress {
  id: string
  text: string
  state: QueryLoad['state']
  /** Items in its top k: the results' own, else the last evaluation's, else k. */
  total: number
  /** Unrated among them; null while not known (not fetched, no evaluation to go by). */
  unrated: number | null
  /** The counts come from the last evaluation, not from the query's own results yet. */
  previewed: boolean
  error: string | null
}

export interface Progress {
  rated: number
  total: number
  /** Unrated items known to be left, in every query's top k. */
  left: number
  /** Queries whose results are not here yet (asked or not). */
  pending: number
  queries: QueryProgress[]
}

/**
 * How much of the top k of the walk's queries is rated, query by query. A
 * query counts its own results once here; before that, the last evaluation's
 * top k when there is one (so the figures agree with the Evaluation view's
 * "unjudged"), else k items of which none is known rated. A failed query counts nothing.
 */
export function progressOf(queue: JudgeQueue, isRated: IsRated, depth: number): Progress {
  let rated = 0
  let total = 0
  let left = 0
  let pending = 0
  const queries = queue.queries.map((query, index): QueryProgress => {
    const load = queue.loads[index]!
    const base = { id: query.id, text: query.text, state: load.state, error: null, previewed: false }
    if (load.state === 'failed') return { ...base, total: 0, unrated: 0, error: load.error }
    if (load.state === 'ready') {
      const unrated = unratedOf(query.id, load.top, isRated)
      rated += load.top.length - unrated
      total += load.top.length
      left += unrated
      return { ...base, total: load.top.length, unrated }
    }
    pending++
    if (query.preview) {
      const unrated = unratedOf(query.id, query.preview, isRated)
      rated += query.preview.length - unrated
      total += query.preview.length
      left += unrated
      return { ...base, total: query.preview.length, unrated, previewed: true }
    }
    total += depth
    return { ...base, total: depth, unrated: null }
  })
  return { rated, total, left, pending, queries }
}
