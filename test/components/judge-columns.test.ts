import { describe, expect, it } from 'vitest'
import { isJudgeGradeColumn, judgeColumns, withJudgeColumns } from '../../src/renderer/components/results/judge-columns'
import { DEFAULT_SCALE, type QuerySet } from '../../src/shared/relevance/query-set'
import type { ResultItem } from '../../src/shared/responses'
import type { Column } from '../../src/shared/results/table'

/**
 * The LLM judges' grades as the grid's read-only columns: one per judge
 * that graded an item of the query rated (not a person, not another
 * query's judge), in one order for every query (the workspace's judges'
 * first, then as the set first names them), the demo's
 * stand-in marked, each cell the grade in words with its scale's tone and
 * the judge's explanation as its description; placed right after the
 * person's Rating column. (The grid drawing them: GridJudgeGrades.test.ts.)
 */

const SET: QuerySet = {
  name: 'World cities',
  query: 'City search',
  queries: [{ id: 'q01', text: 'paris' }, { id: 'q02', text: 'rome' }],
  judgments: [
    { query: 'q01', item: 'paris-1', rater: 'r1', grade: 3 },
    { query: 'q01', item: 'paris-2', rater: 'llm:gpt', grade: 3, explanation: 'The capital of France.' },
    { query: 'q01', item: 'paris-1', rater: 'llm:demo', grade: 2, explanation: 'A city named Paris.' },
    { query: 'q01', item: 'paris-2', rater: 'llm:demo', grade: 0 },
    // A grade off the scale (the set's scale changed since): shown as the number it is.
    { query: 'q01', item: 'paris-3', rater: 'llm:demo', grade: 7, explanation: 'Very relevant.' },
    { query: 'q02', item: 'rome-1', rater: 'llm:claude', grade: 1, explanation: 'Rome, Georgia.' },
    { query: 'q02', item: 'rome-1', rater: 'r1', grade: 3 },
  ],
}

const item = (id: string): ResultItem => ({ rank: 1, probability: 1, tuple: [{ id, class: ['city'], attributes: { name: id } }] })
const DEMO = new Set(['llm:demo'])

describe('judgeColumns', () => {
  it('gives one column per judge that graded the query rated, in the order the set names them, the demo stand-in marked', () => {
    const columns = judgeColumns(SET, 'q01', DEFAULT_SCALE, DEMO)
    expect(columns.map((column) => [column.key, column.label, column.kind, column.tupleColumn])).toEqual([
      ['judge:llm:gpt', 'llm:gpt', 'rating', 0],
      ['judge:llm:demo', 'llm:demo (demo)', 'rating', 0],
    ])
    // Another query: its own judges; a person's grades are the Rating column's, never a judge's.
    expect(judgeColumns(SET, 'q02', DEFAULT_SCALE, DEMO).map((column) => column.label)).toEqual(['llm:claude'])
  })

  it("keeps the columns in one order from query to query: the workspace's judges' order, then other judges as the whole set first names them", () => {
    // q01 names demo before gpt, q02 gpt before demo; claude is no judge of the workspace (removed, or imported grades).
    const set: QuerySet = {
      ...SET,
      judgments: [
        { query: 'q01', item: 'paris-1', rater: 'llm:claude', grade: 1 },
        { query: 'q01', item: 'paris-1', rater: 'llm:demo', grade: 2 },
        { query: 'q01', item: 'paris-1', rater: 'llm:gpt', grade: 3 },
        { query: 'q02', item: 'rome-1', rater: 'llm:gpt', grade: 3 },
        { query: 'q02', item: 'rome-1', rater: 'llm:mistral', grade: 1 },
        { query: 'q02', item: 'rome-1', rater: 'llm:claude', grade: 1 },
        { query: 'q02', item: 'rome-1', rater: 'llm:demo', grade: 2 },
      ],
    }
    const judges = ['llm:gpt', 'llm:demo']
    const labels = (query: string) => judgeColumns(set, query, DEFAULT_SCALE, new Set(), judges).map((column) => column.label)
    expect(labels('q01')).toEqual(['llm:gpt', 'llm:demo', 'llm:claude'])
    expect(labels('q02')).toEqual(['llm:gpt', 'llm:demo', 'llm:claude', 'llm:mistral'])
    // With no judges listed, the set's first naming alone: still one order for every query.
    expect(judgeColumns(set, 'q02', DEFAULT_SCALE).map((column) => column.label)).toEqual(['llm:claude', 'llm:demo', 'llm:gpt', 'llm:mistral'])
  })

  it('shows each grade in words with its tone, the explanation as its description, and nothing for an item the judge did not grade', () => {
    const [gpt, demo] = judgeColumns(SET, 'q01', DEFAULT_SCALE, DEMO)
    const read = (column: typeof demo, id: string) => [column!.rating!.text(item(id)), column!.rating!.tone(item(id)), column!.explain(item(id))]
    expect(read(demo, 'paris-1')).toEqual(['2 Good', 'high', 'A city named Paris.'])
    expect(read(demo, 'paris-2')).toEqual(['0 Poor', 'lowest', ''])
    expect(read(demo, 'paris-3')).toEqual(['7', null, 'Very relevant.'])
    expect(read(demo, 'paris-9')).toEqual(['', null, ''])
    expect(read(gpt, 'paris-2')).toEqual(['3 Perfect', 'top', 'The capital of France.'])
    expect(read(gpt, 'paris-1')).toEqual(['', null, ''])
    expect(demo!.rating!.steps).toEqual([
      { grade: 0, text: '0 Poor' }, { grade: 1, text: '1 Fair' }, { grade: 2, text: '2 Good' }, { grade: 3, text: '3 Perfect' },
    ])
  })

  it("reads the grades on the set's own scale", () => {
    const scale = [{ grade: 0, label: 'Off topic' }, { grade: 1, label: 'On topic' }]
    const set: QuerySet = { ...SET, judgments: [{ query: 'q01', item: 'paris-1', rater: 'llm:gpt', grade: 1 }] }
    const [gpt] = judgeColumns(set, 'q01', scale)
    expect([gpt!.label, gpt!.rating!.text(item('paris-1')), gpt!.rating!.tone(item('paris-1'))]).toEqual(['llm:gpt', '1 On topic', 'top'])
  })

  it('gives none while no set is shown or no query rated, or when no judge graded the query', () => {
    expect(judgeColumns(null, 'q01', DEFAULT_SCALE)).toEqual([])
    expect(judgeColumns(SET, null, DEFAULT_SCALE)).toEqual([])
    expect(judgeColumns({ ...SET, judgments: SET.judgments.filter((judgment) => judgment.rater === 'r1') }, 'q01', DEFAULT_SCALE)).toEqual([])
  })

  it("tells a judge's column from the others", () => {
    const [demo] = judgeColumns(SET, 'q01', DEFAULT_SCALE, DEMO)
    expect(isJudgeGradeColumn(demo!)).toBe(true)
    expect(isJudgeGradeColumn(RATING)).toBe(false)
  })
})

const RANK: Column = { key: 'rank', label: 'Rank', tupleColumn: 0, kind: 'rank' }
const RATING: Column = { key: 'rating', label: 'Rating', tupleColumn: 0, kind: 'rating' }
const NAME: Column = { key: 'name', label: 'name', tupleColumn: 1, kind: 'attribute', attribute: 'name' }

describe('withJudgeColumns', () => {
  it("puts the judges' columns right after the person's Rating", () => {
    const judges = judgeColumns(SET, 'q01', DEFAULT_SCALE, DEMO)
    expect(withJudgeColumns([RANK, RATING, NAME], judges).map((column) => column.key)).toEqual(['rank', 'rating', 'judge:llm:gpt', 'judge:llm:demo', 'name'])
  })

  it('leaves the columns as they are with no judges, or with no Rating column (no query rated)', () => {
    const columns = [RANK, NAME]
    expect(withJudgeColumns(columns, judgeColumns(SET, 'q01', DEFAULT_SCALE))).toBe(columns)
    const rated = [RANK, RATING, NAME]
    expect(withJudgeColumns(rated, [])).toBe(rated)
  })
})
