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
    const set = makeSet([{ id: 'q1', text: 'x' }], [{ query: 'q1', item: 'two words', grade: 1 }])
    expect(() => formatJudgments('trec-qrels', set)).toThrow(/"two words" of the query "q1".*white space/)
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
