import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchJudgeItems, fetchQueueItems, itemFields, MAX_ITEM_CHARS, MAX_SHOWN_ATTRIBUTES } from '../../src/main/judges/judge-items'
import { itemText } from '../../src/shared/relevance/llm-judge'
import { JudgeSchema } from '../../src/shared/relevance/llm-judge'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { search } from './support'

/**
 * The items a judge grades, fetched through the app's query runner from a
 * Query API on 127.0.0.1 as an evaluation fetches a set's rankings: each
 * query's top K with the first column's attributes, each value cut to the
 * judge's bound as it is read; or only the pairs of a judge-next queue.
 */

const judge = JudgeSchema.parse({ name: 'j', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', maxFieldChars: 20 })
const long = `x${'y'.repeat(149)}`

describe('judge items', () => {
  let api: RankingServer
  beforeAll(async () => {
    api = await startRankingServer({ paris: ['p1', 'p2', 'p3', 'p4'], lisbon: ['l1', long], broken: { status: 500, message: 'index offline' } })
  })
  afterAll(() => api?.close())

  const base = (texts: string[]) => ({
    runner: api.runner,
    target: api.target,
    template: search('{{query}}'),
    queries: texts.map((text, i) => ({ id: `q${i + 1}`, text })),
    judge,
    runId: 'judge',
  })

  it("keeps each query's top K with its attributes, cut to the judge's bound; a query that fails is named, with why", async () => {
    const done: number[] = []
    const items = await fetchJudgeItems({ ...base(['paris', 'lisbon', 'broken']), depth: 3, onQuery: (n) => done.push(n) })
    expect(items.tasks.map((task) => [task.query, task.queryText, task.item])).toEqual([
      ['q1', 'paris', 'p1'],
      ['q1', 'paris', 'p2'],
      ['q1', 'paris', 'p3'],
      ['q2', 'lisbon', 'l1'],
      ['q2', 'lisbon', long],
    ])
    expect(items.tasks[0]!.fields).toEqual({ name: 'P1' })
    // Kept to one character more than the prompt shows, so the prompt still marks it cut.
    expect(items.tasks[4]!.fields).toEqual({ name: long.toUpperCase().slice(0, 21) })
    expect(items.failed).toEqual([{ query: 'q3', reason: expect.stringContaining('index offline') }])
    expect(items.contents.get('q1')?.size).toBe(3)
    expect(items.rankings.map((ranking) => ranking.items.length)).toEqual([3, 2, 0])
    expect(done.sort()).toEqual([1, 2, 3])
  })

  it("fetches only a queue's queries and keeps its pairs in its order; an item the results no longer hold is missing", async () => {
    const before = api.asked().length
    const items = await fetchQueueItems({
      ...base(['paris', 'lisbon', 'broken']),
      depth: 10,
      pairs: [
        { query: 'q2', item: 'l1' },
        { query: 'q2', item: 'gone' },
      ],
    })
    expect(api.asked().slice(before)).toEqual(['lisbon'])
    expect(items.tasks.map((task) => task.item)).toEqual(['l1'])
    expect(items.missing).toEqual([{ query: 'q2', item: 'gone' }])
    // Every item fetched may serve as a few-shot example.
    expect([...items.contents.get('q2')!.keys()]).toEqual(['l1', long])
  })

  it("shows the judge's fields only, the column itself where it has no attributes, and a row of plain values as its text", () => {
    const item = { tuple: [{ id: 'x', class: ['City'], attributes: { name: 'Paris', population: 2138551, tags: { a: 1 } } }] }
    expect(itemFields(item, { ...judge, fields: ['population', 'missing'] })).toEqual({ population: 2138551 })
    expect(itemFields(item, judge)).toEqual({ name: 'Paris', population: 2138551, tags: '{"a":1}' })
    expect(itemFields({ tuple: { '1': { id: 'x', class: ['City'], name: 'Lisbon' } } }, judge)).toEqual({ id: 'x', class: '["City"]', name: 'Lisbon' })
    expect(itemFields({ tuple: ['s', 'p', 'o'] }, judge)).toEqual({ value: 's · p · o' })
  })

  it('with no fields named, shows the first 30 attributes of an item that has hundreds', () => {
    const attributes = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`a${i}`, `value ${i}`]))
    const fields = itemFields({ tuple: [{ id: 'x', class: ['City'], attributes }] }, judge)
    expect(Object.keys(fields)).toEqual(Array.from({ length: MAX_SHOWN_ATTRIBUTES }, (_, i) => `a${i}`))
    // Fields the judge names are shown whatever their place.
    expect(itemFields({ tuple: [{ id: 'x', class: ['City'], attributes }] }, { ...judge, fields: ['a499'] })).toEqual({ a499: 'value 499' })
  })

  it('holds at most MAX_ITEM_CHARS characters of an item, all fields together, the one at the bound cut and marked', () => {
    const wide = JudgeSchema.parse({ ...judge, maxFieldChars: 20_000, fields: Array.from({ length: 50 }, (_, i) => `f${i}`) })
    const attributes = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, 'z'.repeat(20_000)]))
    const fields = itemFields({ tuple: [{ id: 'x', class: ['City'], attributes }] }, wide)
    const text = itemText(wide, fields)
    expect(text.length).toBeLessThanOrEqual(MAX_ITEM_CHARS)
    expect(text.length).toBeGreaterThan(MAX_ITEM_CHARS - 100)
    expect(text.endsWith('…')).toBe(true)
  })
})
