import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOT_RUN_QUERY, probabilitiesNote, runSetQueries, type RankedQuery, type RunSetOptions } from '../../src/main/evaluation/run-set'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { search } from './support'

/** A set's queries run through the app's query runner against a Query API on 127.0.0.1 that answers rankings the test wrote. */

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`)

describe('runSetQueries', () => {
  let api: RankingServer
  beforeAll(async () => {
    api = await startRankingServer({
      long: ids('L', 160),
      short: ['a', 'b', 'a', 'c'],
      broken: { status: 500, message: 'index offline' },
      infinite: { raw: '{"offset":0,"count":2,"type":["OBJ"],"items":[{"rank":1,"probability":0.5,"tuple":[{"id":"x","class":["C"]}]},{"rank":2,"probability":1e999,"tuple":[{"id":"y","class":["C"]}]}]}' },
      huge: [`k${'x'.repeat(2_100)}`],
    })
  })
  afterAll(() => api?.close())

  const options = (texts: string[], extra: Partial<RunSetOptions> = {}): RunSetOptions => ({
    runner: api.runner,
    target: api.target,
    template: search('{{query}}'),
    queries: texts.map((text, i) => ({ id: `q${i + 1}`, text })),
    depth: 150,
    labelDepth: 2,
    runId: 'run',
    ...extra,
  })

  it('keeps each query to the depth, over as many pages as that takes, labels only to the label depth, in the set order', async () => {
    const ended: number[] = []
    const [long, short] = await runSetQueries(options(['long', 'short'], { onQuery: (_, index) => ended.push(index) }))
    expect(long).toMatchObject({ id: 'q1', text: 'long', items: ids('L', 150), labels: ['L1', 'L2'], error: null })
    expect(long!.probabilities!.slice(0, 2)).toEqual([1, 0.5])
    // The repeated "a" counts at its first place only; a short page ends the query.
    expect(short).toMatchObject({ id: 'q2', items: ['a', 'b', 'c'], labels: ['A', 'B'], probabilities: [1, 0.5, 0.25], error: null })
    expect(ended.sort()).toEqual([0, 1])
    expect(api.asked().filter((text) => text === 'long')).toHaveLength(2)
  })

  it('a failing query keeps its reason and the others their rankings', async () => {
    const [broken, short] = await runSetQueries(options(['broken', 'short'], { depth: 3 }))
    expect(broken).toMatchObject({ items: [], labels: [], error: expect.stringContaining('index offline') })
    // Depth 3 asks for three places: the third repeats the first, so two items are kept.
    expect(short).toMatchObject({ items: ['a', 'b'], error: null })
  })

  it('a probability JSON reads as Infinity leaves the probabilities out, saying which item', async () => {
    const [ranking] = await runSetQueries(options(['infinite'], { depth: 10 }))
    expect(ranking).toMatchObject({ items: ['x', 'y'], note: probabilitiesNote(2), error: null })
    expect(ranking).not.toHaveProperty('probabilities')
    expect(probabilitiesNote(2)).toBe("Probabilities left out: item 2's probability is not a finite number.")
  })

  it('an item key longer than a judgment may name fails that query, naming the rule', async () => {
    const [ranking] = await runSetQueries(options(['huge'], { depth: 10 }))
    expect(ranking!.error).toBe("Item 1's key is 2,101 characters: an item key is at most 2,000 characters (a judgment's item), so this ranking is not kept.")
  })

  it('a cancelled run says which queries it did not run, and asks nothing', async () => {
    const before = api.asked().length
    const cancelled = new AbortController()
    cancelled.abort()
    const rankings = await runSetQueries(options(['short', 'long'], { signal: cancelled.signal }))
    expect(rankings.map((ranking) => [ranking.id, ranking.error, ranking.items])).toEqual([
      ['q1', NOT_RUN_QUERY, []],
      ['q2', NOT_RUN_QUERY, []],
    ])
    expect(api.asked().length).toBe(before)
  })

  it('a memo that knows the pages gives the ranking without asking the server; the key names the pages and the depths', async () => {
    const keys: string[] = []
    const known: RankedQuery = { items: ['m1'], labels: ['M1'], probabilities: [0.9], pages: 1 }
    const before = api.asked().length
    const [ranking] = await runSetQueries(options(['short'], { memo: async (key) => (keys.push(key), known) }))
    expect(ranking).toMatchObject({ items: ['m1'], labels: ['M1'], probabilities: [0.9], error: null })
    expect(api.asked().length).toBe(before)
    expect(keys[0]!.split('\u0000').slice(0, 5)).toEqual(['ranking-server', api.target.queryUrl, '', '150', '2'])
  })
})
