import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  again,
  back,
  canGoBack,
  createQueue,
  current,
  DEFAULT_JUDGE_DEPTH,
  judgeDepthFor,
  judgeSeed,
  next,
  pairWalk,
  progressOf,
  queryFailed,
  queryLoaded,
  queryLoading,
  seededShuffle,
  toFetch,
  type IsRated,
  type JudgeQueue,
} from '../../src/shared/relevance/judge-queue'

/** Grades as the store holds them, by query then item, changed as a test rates. */
function judgments(initial: Record<string, string[]> = {}) {
  const rated = new Map(Object.entries(initial).map(([query, items]) => [query, new Set(items)]))
  const isRated: IsRated = (query, item) => rated.get(query)?.has(item) ?? false
  const rate = (query: string, item: string) => {
    if (!rated.has(query)) rated.set(query, new Set())
    rated.get(query)!.add(item)
  }
  return { isRated, rate }
}

const QUERIES = [
  { id: 'q1', text: 'paris' },
  { id: 'q2', text: 'lisbon' },
  { id: 'q3', text: 'rome' },
]
const top = (query: string, count: number) => Array.from({ length: count }, (_, i) => `${query}-${i + 1}`)

/** The keys the walk shows, from where it is to its end, each one skipped. */
function walk(queue: JudgeQueue, isRated: IsRated): string[] {
  const shown: string[] = []
  let at = queue
  for (let shownNow = current(at); shownNow.kind === 'item'; shownNow = current(at)) {
    shown.push(shownNow.key)
    at = next(at, isRated)
  }
  return shown
}

describe('seededShuffle', () => {
  it('is a permutation of the list', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 40 }), fc.string(), (list, seed) => {
        const shuffled = seededShuffle(list, seed)
        expect([...shuffled].sort()).toEqual([...list].sort())
      }),
    )
  })

  it('gives the same order for the same seed, and leaves its input as it was', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 40 }), fc.string(), (list, seed) => {
        const before = [...list]
        expect(seededShuffle(list, seed)).toEqual(seededShuffle(list, seed))
        expect(list).toEqual(before)
      }),
    )
  })

  it('is not the ranking itself for five items or more, with most seeds', () => {
    for (const size of [5, 10, 20]) {
      const list = Array.from({ length: size }, (_, i) => i)
      let identity = 0
      for (let seed = 0; seed < 200; seed++) {
        const shuffled = seededShuffle(list, judgeSeed('World cities', `q${seed}`))
        if (shuffled.every((value, i) => value === i)) identity++
      }
      // 1 in 120 at random for five items: a handful in 200 at most.
      expect(identity, `${size} items`).toBeLessThan(5)
    }
  })

  it('orders differently for different queries of a set, and for the same query of different sets', () => {
    const list = top('x', 10)
    expect(seededShuffle(list, judgeSeed('World cities', 'q01'))).not.toEqual(seededShuffle(list, judgeSeed('World cities', 'q02')))
    expect(seededShuffle(list, judgeSeed('World cities', 'q01'))).not.toEqual(seededShuffle(list, judgeSeed('Capitals', 'q01')))
  })

  it('moves each item to each place about as often (no position bias left)', () => {
    const size = 5
    const counts = Array.from({ length: size }, () => new Array<number>(size).fill(0))
    const runs = 5_000
    for (let seed = 0; seed < runs; seed++) {
      seededShuffle([0, 1, 2, 3, 4], `set\u0000q${seed}`).forEach((value, place) => counts[value]![place]!++)
    }
    for (const row of counts) for (const count of row) expect(Math.abs(count - runs / size)).toBeLessThan(runs / size / 5)
  })
})

describe('judgeDepthFor', () => {
  it("is the shown evaluation's judge depth when it is of the set, else 10", () => {
    expect(judgeDepthFor({ set: 'World', judgeDepth: 20 }, 'World')).toBe(20)
    expect(judgeDepthFor({ set: 'Other', judgeDepth: 20 }, 'World')).toBe(DEFAULT_JUDGE_DEPTH)
    expect(judgeDepthFor(null, 'World')).toBe(10)
    expect(judgeDepthFor({ set: 'World', judgeDepth: 20 }, null)).toBe(10)
  })
})

describe('the judge queue', () => {
  it('walks query by query in the set order, the unrated items of each in the shuffled order, waiting for results not here yet', () => {
    const { isRated } = judgments({ q1: ['q1-2'] })
    let queue = createQueue(QUERIES)
    expect(current(queue)).toEqual({ kind: 'fetching', query: 0 })
    expect(toFetch(queue, isRated)).toEqual([0, 1])
    queue = queryLoading(queryLoading(queue, 0), 1)
    expect(toFetch(queue, isRated)).toEqual([])

    queue = queryLoaded(queue, 0, top('q1', 4), judgeSeed('Set', 'q1'), isRated)
    const order = seededShuffle(top('q1', 4), judgeSeed('Set', 'q1')).filter((key) => key !== 'q1-2')
    expect(current(queue)).toEqual({ kind: 'item', query: 0, item: 0, key: order[0] })
    for (const key of order.slice(1)) {
      queue = next(queue, isRated)
      expect(current(queue)).toMatchObject({ kind: 'item', key })
    }
    // The last of q1: on to q2, whose results are not here yet.
    queue = next(queue, isRated)
    expect(current(queue)).toEqual({ kind: 'fetching', query: 1 })
    expect(toFetch(queue, isRated)).toEqual([2])
    queue = queryLoaded(queue, 1, top('q2', 2), judgeSeed('Set', 'q2'), isRated)
    expect(current(queue)).toMatchObject({ kind: 'item', query: 1 })
  })

  it('keeps the order of the items left when it is opened again after some were rated', () => {
    const seed = judgeSeed('Set', 'q1')
    const first = walk(queryLoaded(createQueue(QUERIES.slice(0, 1)), 0, top('q1', 8), seed, () => false), () => false)
    const { isRated, rate } = judgments()
    rate('q1', first[0]!)
    rate('q1', first[3]!)
    const second = walk(queryLoaded(createQueue(QUERIES.slice(0, 1)), 0, top('q1', 8), seed, isRated), isRated)
    expect(second).toEqual(first.filter((key) => !isRated('q1', key)))
  })

  it('skips (the item stays unrated) and goes back to the item before, rated or skipped, its grade open to change', () => {
    const { isRated, rate } = judgments()
    let queue = queryLoaded(createQueue(QUERIES.slice(0, 1)), 0, top('q1', 3), 'seed', isRated)
    const [a, b, c] = walk(queue, isRated)
    expect(canGoBack(queue)).toBe(false)
    expect(back(queue)).toBe(queue)

    rate('q1', a!)
    queue = next(queue, isRated)
    queue = next(queue, isRated) // b skipped
    expect(current(queue)).toMatchObject({ key: c })
    queue = back(queue)
    expect(current(queue)).toMatchObject({ key: b })
    queue = back(queue)
    expect(current(queue)).toMatchObject({ key: a })
    expect(canGoBack(queue)).toBe(false)
    // Rated again, it moves on to the next unrated item.
    queue = next(queue, isRated)
    expect(current(queue)).toMatchObject({ key: b })
    rate('q1', b!)
    rate('q1', c!)
    queue = next(queue, isRated)
    expect(current(queue)).toEqual({ kind: 'end' })
    // Back from the end, to the last item shown.
    expect(current(back(queue))).toMatchObject({ key: b })
  })

  it('passes items rated meanwhile (in the grid) when moving on, and goes through the skipped ones again', () => {
    const { isRated, rate } = judgments()
    let queue = queryLoaded(createQueue(QUERIES.slice(0, 1)), 0, top('q1', 4), 'seed', isRated)
    const [a, b, c, d] = walk(queue, isRated)
    rate('q1', c!)
    queue = next(queue, isRated) // a skipped
    expect(current(queue)).toMatchObject({ key: b })
    rate('q1', b!)
    queue = next(queue, isRated)
    expect(current(queue)).toMatchObject({ key: d })
    queue = next(queue, isRated) // d skipped
    expect(current(queue)).toEqual({ kind: 'end' })
    queue = again(queue, isRated)
    expect(walk(queue, isRated)).toEqual([a, d])
  })

  it('passes a query that failed, and one with nothing unrated, and fetches one ahead past them', () => {
    const { isRated } = judgments({ q2: top('q2', 3) })
    let queue = createQueue(QUERIES)
    queue = queryFailed(queue, 0, 'The service answered 500')
    expect(current(queue)).toEqual({ kind: 'fetching', query: 1 })
    queue = queryLoaded(queue, 1, top('q2', 3), 'seed', isRated)
    expect(current(queue)).toEqual({ kind: 'fetching', query: 2 })
    queue = queryLoaded(queue, 2, top('q3', 2), 'seed', isRated)
    expect(walk(queue, isRated).sort()).toEqual(top('q3', 2))

    // Ahead of the query shown, a query with nothing left is passed over for the one after it.
    let ahead = queryLoaded(createQueue(QUERIES), 0, top('q1', 2), 'seed', isRated)
    ahead = queryLoaded(ahead, 1, top('q2', 3), 'seed', isRated)
    expect(current(ahead)).toMatchObject({ query: 0 })
    expect(toFetch(ahead, isRated)).toEqual([2])
  })

  it('counts rated items of the top k: results once here, else the last evaluation, else k unknown ones; a failed query counts none', () => {
    const { isRated, rate } = judgments({ q1: ['q1-1'], q2: ['q2-1', 'q2-2'] })
    const queries = [
      { id: 'q1', text: 'paris' },
      { id: 'q2', text: 'lisbon', preview: top('q2', 4) },
      { id: 'q3', text: 'rome' },
      { id: 'q4', text: 'oslo' },
    ]
    let queue = createQueue(queries)
    queue = queryLoaded(queue, 0, top('q1', 3), 'seed', isRated)
    queue = queryFailed(queue, 3, 'timed out')
    let progress = progressOf(queue, isRated, 10)
    expect(progress).toMatchObject({ rated: 3, total: 3 + 4 + 10, left: 2 + 2, pending: 2 })
    expect(progress.queries.map((query) => [query.id, query.state, query.total, query.unrated, query.previewed, query.error])).toEqual([
      ['q1', 'ready', 3, 2, false, null],
      ['q2', 'waiting', 4, 2, true, null],
      ['q3', 'waiting', 10, null, false, null],
      ['q4', 'failed', 0, 0, false, 'timed out'],
    ])
    rate('q1', 'q1-2')
    progress = progressOf(queue, isRated, 10)
    expect(progress).toMatchObject({ rated: 4, left: 3 })
    // Its own results replace the evaluation's: three items, one of them rated.
    queue = queryLoaded(queue, 1, ['q2-1', 'q2-9', 'q2-8'], 'seed', isRated)
    expect(progressOf(queue, isRated, 10).queries[1]).toMatchObject({ state: 'ready', total: 3, unrated: 2, previewed: false })
  })

  it('takes a key that comes twice in the top k once', () => {
    const queue = queryLoaded(createQueue(QUERIES.slice(0, 1)), 0, ['a', 'b', 'a'], 'seed', () => false)
    expect(walk(queue, () => false).sort()).toEqual(['a', 'b'])
    expect(progressOf(queue, () => false, 10).total).toBe(2)
  })

  it('has nothing to walk with no queries', () => {
    const queue = createQueue([])
    expect(current(queue)).toEqual({ kind: 'end' })
    expect(toFetch(queue, () => false)).toEqual([])
    expect(progressOf(queue, () => false, 10)).toMatchObject({ rated: 0, total: 0, left: 0, pending: 0 })
  })
})

describe('a walk of given pairs (What to judge next)', () => {
  const texts: Record<string, string> = { q1: 'paris', q2: 'lisbon', q3: 'rome' }
  const textOf = (id: string) => texts[id]
  // The queue's order: most telling first, the queries interleaved.
  const PAIRS = [
    { query: 'q2', item: 'q2-7' },
    { query: 'q1', item: 'q1-3' },
    { query: 'q2', item: 'q2-1' },
    { query: 'gone', item: 'x' },
    { query: 'q1', item: 'q1-9' },
    { query: 'q2', item: 'q2-7' },
    { query: 'q2', item: 'q2-4' },
  ]

  it('groups the pairs by query, in the order each query first comes, each pair once, a query not in the set left out', () => {
    expect(pairWalk(PAIRS, textOf)).toEqual([
      { id: 'q2', text: 'lisbon', preview: ['q2-7', 'q2-1', 'q2-4'], items: ['q2-7', 'q2-1', 'q2-4'] },
      { id: 'q1', text: 'paris', preview: ['q1-3', 'q1-9'], items: ['q1-3', 'q1-9'] },
    ])
    expect(pairWalk([], textOf)).toEqual([])
  })

  it('walks only the listed items, shuffled as a whole-top walk shuffles, whatever the results hold', () => {
    const { isRated, rate } = judgments({ q1: ['q1-9'] })
    let queue = createQueue(pairWalk(PAIRS, textOf))
    expect(toFetch(queue, isRated)).toEqual([0, 1])
    // Its results are the live top k: q2-4 is no longer in them, and they hold items the queue does not list.
    queue = queryLoaded(queue, 0, ['q2-1', 'q2-2', 'q2-3', 'q2-7'], judgeSeed('s', 'q2'), isRated)
    queue = queryLoaded(queue, 1, top('q1', 10), judgeSeed('s', 'q1'), isRated)
    const shown = walk(queue, isRated)
    expect(shown.slice(0, 3)).toEqual(seededShuffle(['q2-7', 'q2-1', 'q2-4'], judgeSeed('s', 'q2')))
    // q1-9 was rated before the walk began (by this rater): only q1-3 is left of q1.
    expect(shown.slice(3)).toEqual(['q1-3'])
    expect(progressOf(queue, isRated, 10)).toMatchObject({ rated: 1, total: 5, left: 4, pending: 0 })
    rate('q2', shown[0]!)
    expect(progressOf(queue, isRated, 10)).toMatchObject({ rated: 2, left: 3 })
  })

  it('counts the listed items, not k, before a query is fetched', () => {
    const queue = createQueue(pairWalk(PAIRS, textOf))
    expect(progressOf(queue, () => false, 10)).toMatchObject({ rated: 0, total: 5, left: 5, pending: 2 })
  })

  it('leaves the whole-top walk as it was: a query without items walks its top k', () => {
    const queue = queryLoaded(createQueue(QUERIES.slice(0, 1)), 0, top('q1', 4), 'seed', () => false)
    expect(walk(queue, () => false)).toEqual(seededShuffle(top('q1', 4), 'seed'))
  })
})
