import { describe, expect, it } from 'vitest'
import { MAX_SET_JUDGMENTS } from '../../src/shared/relevance/query-set'
import { parseJudgments } from '../../src/shared/relevance/judgment-files'
import { withImport } from '../../src/shared/relevance/set-edits'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { CITIES, imported, makeSet, refusal, strip } from '../fixtures/judgment-sets'

/** What every format's import shares (judgment-import): matching queries, new ids, grades on the scale, problems, limits. */

describe('the importer every format reads into', () => {
  it('matches a query by exact text, then trimmed and in any case when exactly one matches', () => {
    const set = makeSet([
      { id: 'a', text: 'Paris' },
      { id: 'b', text: 'paris' },
      { id: 'c', text: 'Lyon' },
    ])
    const read = imported('quepid-csv', 'query,docid,rating\nparis,x,1\nPARIS,y,1\n  lyon ,z,2\n', set)
    // "PARIS" folds to two queries of the set, so it names neither: it is a new query.
    expect(strip(read.judgments)).toEqual([
      { query: 'b', item: 'x', grade: 1 },
      { query: 'q1', item: 'y', grade: 1 },
      { query: 'c', item: 'z', grade: 2 },
    ])
    expect(read.newQueries).toEqual([{ id: 'q1', text: 'PARIS' }])
  })

  it('adds the queries it does not know, with ids that go on from the set (q31, q32…) and skip any in use', () => {
    const queries = Array.from({ length: 30 }, (_, index) => ({ id: `q${index + 1}`, text: `city ${index + 1}` }))
    const set = makeSet([...queries, { id: 'q32', text: 'taken' }].filter((query) => query.id !== 'q31'))
    const read = imported('quepid-csv', 'query,docid,rating\nberlin,Q64,3\nrome,Q220,2\nberlin,Q1055,1\n', set)
    expect(read.newQueries).toEqual([
      { id: 'q33', text: 'berlin' },
      { id: 'q34', text: 'rome' },
    ])
    expect(strip(read.judgments)).toEqual([
      { query: 'q33', item: 'Q64', grade: 3 },
      { query: 'q34', item: 'Q220', grade: 2 },
      { query: 'q33', item: 'Q1055', grade: 1 },
    ])
  })

  it("counts the judgments that replace one of the same rater's with another grade; another rater's are not replaced", () => {
    // CITIES is graded by r1: a file read as r1's replaces r1's grade of Q167646 (1 → 2).
    const again = imported('quepid-csv', 'query,docid,rating\nparis,Q90,3\nparis,Q167646,2\nparis,new,0\n', CITIES, 'r1')
    expect(again.replaced).toBe(1)
    expect(again.judgments).toHaveLength(3)
    expect(again.judgments.every((judgment) => judgment.rater === 'r1')).toBe(true)
    // The same file as another rater's (its file name) replaces nothing.
    const other = imported('quepid-csv', 'query,docid,rating\nparis,Q90,3\nparis,Q167646,2\nparis,new,0\n', CITIES, 'ratings.csv')
    expect(other.replaced).toBe(0)
    expect(other.judgments.map((judgment) => judgment.rater)).toEqual(['ratings.csv', 'ratings.csv', 'ratings.csv'])
  })

  it("adds a file's grades as its rater's (kind import) beside another rater's, never over them", () => {
    const workspace = { ...emptyWorkspace(), sets: [CITIES] }
    const read = imported('trec-qrels', 'q1 0 Q90 1\nq1 0 new 2\n', CITIES, 'june.qrels')
    const set = withImport(workspace, CITIES.name, read).sets!.find((each) => each.name === CITIES.name)!
    expect(set.judgments.filter((judgment) => judgment.query === 'q1' && judgment.item === 'Q90')).toEqual([
      { query: 'q1', item: 'Q90', rater: 'r1', grade: 3 },
      { query: 'q1', item: 'Q90', rater: 'june.qrels', grade: 1 },
    ])
    expect(set.judgments).toHaveLength(CITIES.judgments.length + 2)
    expect(set.raters).toEqual([
      { name: 'r1', kind: 'person' },
      { name: 'june.qrels', kind: 'import' },
    ])
  })

  it('accepts a whole grade written with a zero fraction', () => {
    expect(strip(imported('quepid-csv', 'query,docid,rating\nparis,Q90,2.0\n').judgments)).toEqual([{ query: 'q1', item: 'Q90', grade: 2 }])
  })
})

describe('refusals', () => {
  it('refuses a grade that is not on the scale, with its line', () => {
    const text = 'query,docid,rating\nparis,a,1\nparis,b,1\nparis,c,1\nparis,d,1\nparis,e,1\nparis,f,4\n'
    expect(refusal('quepid-csv', text)).toBe(`line 7: "4" is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)`)
  })

  it('refuses a grade above, below or between the steps of the scale, or not whole', () => {
    const scale = [
      { grade: 0, label: 'Bad' },
      { grade: 1, label: 'Fine' },
      { grade: 3, label: 'Best' },
    ]
    const set = makeSet([{ id: 'q1', text: 'x' }], [], { scale })
    expect(refusal('trec-qrels', 'q1 0 a 4\nq1 0 b -1\nq1 0 c 2\nq1 0 d 2.5\nq1 0 e high\nq1 0 f 3\n', set).split('\n')).toEqual([
      `line 1: "4" is not a grade of the set's scale (0 Bad, 1 Fine, 3 Best)`,
      `line 2: "-1" is not a grade of the set's scale (0 Bad, 1 Fine, 3 Best)`,
      `line 3: "2" is not a grade of the set's scale (0 Bad, 1 Fine, 3 Best)`,
      `line 4: "2.5" is not a grade of the set's scale (0 Bad, 1 Fine, 3 Best)`,
      `line 5: "high" is not a grade of the set's scale (0 Bad, 1 Fine, 3 Best)`,
    ])
  })

  it('one query and item graded twice differently, with both lines; the same grade twice is fine', () => {
    expect(refusal('quepid-csv', 'query,docid,rating\nparis,Q90,3\nrome,Q220,2\nparis,Q90,1\n')).toBe(
      'line 4: grades the item "Q90" of the query "paris" 1, but line 2 grades it 3; a file gives each query and item one grade',
    )
    expect(imported('trec-qrels', 'q1 0 Q90 3\nq1 0 Q90 3\n').judgments).toHaveLength(1)
  })

  it('shows ten problems and counts the rest', () => {
    const lines = Array.from({ length: 25 }, (_, index) => `q1 0 d${index} 9`).join('\n')
    const message = refusal('trec-qrels', lines).split('\n')
    expect(message).toHaveLength(11)
    expect(message[9]).toMatch(/^line 10: /)
    expect(message[10]).toBe('(and 15 more)')
  })

  it('imports nothing from a file with one bad line among good ones', () => {
    const result = parseJudgments('trec-qrels', 'q1 0 a 1\nq9 0 b 1\nq1 0 c 7\n', CITIES, 'import')
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^line 3: /) })
  })

  it('refuses a file over 20 MiB of text', () => {
    const big = `query,docid,rating\n${'x'.repeat(21 * 1024 * 1024)}`
    expect(refusal('quepid-csv', big)).toMatch(/more than 20\.0 MiB of text/)
    // Counted in UTF-8: 7 million three-byte characters are 21 MB.
    expect(refusal('trec-qrels', `q1 0 ${'日'.repeat(7_000_000)} 1`)).toMatch(/more than 20\.0 MiB/)
  })

  it('refuses a file of more than 200,000 judgments', () => {
    let text = ''
    for (let index = 0; index <= MAX_SET_JUDGMENTS; index++) text += `q1 0 d${index} 1\n`
    expect(refusal('trec-qrels', text)).toMatch(/more than 200,000 judgments/)
  })

  it('refuses a file that would take the set over its limits of queries or judgments', () => {
    const queries = Array.from({ length: 9_999 }, (_, index) => ({ id: `q${index + 1}`, text: `t${index + 1}` }))
    expect(refusal('quepid-csv', 'query,docid,rating\nberlin,a,1\nrome,b,1\n', { queries, judgments: [] })).toBe(
      'The file names 2 queries the set does not have, which would bring it to 10,001, over the 10,000 a set may hold.',
    )
    const judgments = Array.from({ length: MAX_SET_JUDGMENTS - 1 }, (_, index) => ({ query: 'q1', item: `d${index}`, rater: 'import', grade: 1 }))
    // d0 replaces one of the set's (the file is read as the same rater's, "import"); d-new and d-newer are two more.
    expect(refusal('trec-qrels', 'q1 0 d0 2\nq1 0 d-new 1\nq1 0 d-newer 1\n', { queries: CITIES.queries, judgments })).toBe(
      "The file's judgments would bring the set to 200,001, over the 200,000 a set may hold.",
    )
  })

  it('refuses an empty file', () => {
    expect(refusal('trec-qrels', '  \n')).toMatch(/empty/)
    expect(refusal('quepid-csv', '\uFEFF')).toMatch(/empty/)
  })
})
