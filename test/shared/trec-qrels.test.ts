import { describe, expect, it } from 'vitest'
import { formatJudgments } from '../../src/shared/relevance/judgment-files'
import { formatRunFile } from '../../src/shared/relevance/trec-qrels'
import { CITIES, imported, makeSet, refusal, strip } from '../fixtures/judgment-sets'

describe('TREC qrels', () => {
  it('writes qid 0 docid rel, a line each, in set order', () => {
    expect(formatJudgments('trec-qrels', CITIES)).toBe(
      'q1 0 Q90 3\nq1 0 Q167646 1\nq2 0 Q60 3\nq2 0 10 2\nq2 0 2 1\nq3 0 doc,with,commas 0\nq4 0 -5 2\n',
    )
  })

  it('cannot write an item with white space, and the error names it', () => {
    const set = makeSet([{ id: 'q1', text: 'x' }], [{ query: 'q1', item: 'two words', rater: 'ann', grade: 1 }])
    expect(() => formatJudgments('trec-qrels', set)).toThrow(/"two words" of the query "q1".*white space/)
  })

  it("writes the set's aggregate by default, by its own rule, a grade between two rounded half up; an adjudicated grade wins", () => {
    const judgments = [
      { query: 'q1', item: 'a', rater: 'ann', grade: 3 },
      { query: 'q1', item: 'a', rater: 'bob', grade: 2 },
      { query: 'q1', item: 'b', rater: 'ann', grade: 1 },
      { query: 'q1', item: 'b', rater: 'bob', grade: 0 },
      { query: 'q1', item: 'c', rater: 'bob', grade: 2 },
      { query: 'q2', item: 'd', rater: 'ann', grade: 0 },
      { query: 'q2', item: 'd', rater: 'bob', grade: 3 },
      { query: 'q2', item: 'd', rater: 'adjudication', grade: 1 },
    ]
    const queries = [
      { id: 'q1', text: 'one' },
      { id: 'q2', text: 'two' },
    ]
    // Means 2.5 → 3 and 0.5 → 1 (half up), 2 alone; d settled at 1.
    const set = makeSet(queries, judgments)
    expect(formatJudgments('trec-qrels', set)).toBe('q1 0 a 3\nq1 0 b 1\nq1 0 c 2\nq2 0 d 1\n')
    expect(formatJudgments('trec-qrels', set, { kind: 'aggregate' })).toBe(formatJudgments('trec-qrels', set))
    const pessimistic = makeSet(queries, judgments, { settings: { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'min' } })
    expect(formatJudgments('trec-qrels', pessimistic)).toBe('q1 0 a 2\nq1 0 b 0\nq1 0 c 2\nq2 0 d 1\n')
  })

  it("writes one rater's own grades when asked, and refuses a rater the set does not have, naming its raters", () => {
    const set = makeSet(
      [{ id: 'q1', text: 'one' }],
      [
        { query: 'q1', item: 'a', rater: 'ann', grade: 3 },
        { query: 'q1', item: 'a', rater: 'bob', grade: 2 },
        { query: 'q1', item: 'b', rater: 'bob', grade: 0 },
      ],
    )
    expect(formatJudgments('trec-qrels', set, { kind: 'rater', rater: 'ann' })).toBe('q1 0 a 3\n')
    expect(formatJudgments('trec-qrels', set, { kind: 'rater', rater: 'bob' })).toBe('q1 0 a 2\nq1 0 b 0\n')
    expect(() => formatJudgments('trec-qrels', set, { kind: 'rater', rater: 'cy' })).toThrow('grades: the set "World cities" has no rater "cy"; its raters are "ann", "bob".')
  })

  it("reads every grade as the file's rater's: a qrels file names no rater", () => {
    const read = imported('trec-qrels', 'q1 0 Q90 3\n', CITIES, 'june.qrels')
    expect(read.judgments).toEqual([{ query: 'q1', item: 'Q90', rater: 'june.qrels', grade: 3 }])
    expect(read.replaced).toBe(0)
  })

  it('reads qid iter docid rel split on any white space, past blank lines and # comments', () => {
    const read = imported('trec-qrels', '# judged in May\n\nq1 0 Q90 3\r\nq2\tQ0  Q60\t2\n   \nq1 1 Q64 0\n')
    expect(strip(read.judgments)).toEqual([
      { query: 'q1', item: 'Q90', grade: 3 },
      { query: 'q2', item: 'Q60', grade: 2 },
      { query: 'q1', item: 'Q64', grade: 0 },
    ])
    expect(read.newQueries).toEqual([])
  })

  it('adds a query it does not know under its qid, its text that id, with a note to edit it', () => {
    const read = imported('trec-qrels', '401 0 FT911-3 1\n401 0 FT911-4 0\n402 0 LA01 2\n')
    expect(read.newQueries.map(({ id, text }) => ({ id, text }))).toEqual([
      { id: '401', text: '401' },
      { id: '402', text: '402' },
    ])
    expect(read.newQueries[0]!.notes).toMatch(/import.*its text is that id/)
    expect(read.judgments.map((judgment) => judgment.query)).toEqual(['401', '401', '402'])
  })

  it('refuses a line with the wrong number of fields', () => {
    expect(refusal('trec-qrels', 'q1 0 Q90 3\nq1 0 Q64 2\nq1 Q60 1\n')).toBe('line 3: expected 4 fields (qid iter docid rel), found 3')
  })
})

describe('formatRunFile', () => {
  it('writes qid Q0 docid rank score tag, the score strictly decreasing within a query', () => {
    const run = formatRunFile(
      [
        { queryId: 'q1', items: ['Q90', 'Q64', 'Q1'] },
        { queryId: 'q2', items: [] },
        { queryId: 'q3', items: ['Q60'] },
      ],
      'explorer',
    )
    expect(run).toBe('q1 Q0 Q90 1 3 explorer\nq1 Q0 Q64 2 2 explorer\nq1 Q0 Q1 3 1 explorer\nq3 Q0 Q60 1 1 explorer\n')
  })

  it('refuses an item, a query id or a tag with white space, naming the query and item', () => {
    expect(() => formatRunFile([{ queryId: 'q7', items: ['ok', 'not ok'] }], 'run')).toThrow(/"not ok" of the query "q7"/)
    expect(() => formatRunFile([{ queryId: 'q 7', items: ['a'] }], 'run')).toThrow(/"q 7"/)
    expect(() => formatRunFile([{ queryId: 'q7', items: ['a'] }], 'my run')).toThrow(/tag "my run"/)
  })
})
