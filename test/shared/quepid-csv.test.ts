import { describe, expect, it } from 'vitest'
import { formatJudgments, parseJudgments } from '../../src/shared/relevance/judgment-files'
import { withImport } from '../../src/shared/relevance/set-edits'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { CITIES, imported, makeSet, refusal, strip } from '../fixtures/judgment-sets'

/**
 * Quepid's CSV through the judgment files' entry points: a case's ratings
 * (query,docid,rating; no rater column) and a book's judgements
 * (query,docid,<rater>…, a column per rater).
 */

/** Two raters who agree on some items and not others, and each graded one the other did not. */
const TWO_RATERS = makeSet(
  [
    { id: 'q1', text: 'paris' },
    { id: 'q2', text: 'new york, ny' },
    { id: 'q3', text: 'no judgments yet' },
  ],
  [
    { query: 'q1', item: 'Q90', rater: 'ann', grade: 3 },
    { query: 'q1', item: 'Q90', rater: '=bob', grade: 2 },
    { query: 'q1', item: 'Q167646', rater: '=bob', grade: 1 },
    { query: 'q2', item: 'Q60', rater: 'ann', grade: 2 },
  ],
  {
    raters: [
      { name: 'ann', kind: 'person' },
      { name: '=bob', kind: 'import' },
    ],
  },
)

describe('Quepid CSV', () => {
  it("writes a column per rater, as Quepid's book export: quoted where needed, formulas guarded, a query with no judgment as its text alone, CRLF and no BOM", () => {
    expect(formatJudgments('quepid-csv', CITIES)).toBe(
      'query,docid,r1\r\n' +
        'paris,Q90,3\r\n' +
        'paris,Q167646,1\r\n' +
        '"new york, ny",Q60,3\r\n' +
        '"new york, ny",10,2\r\n' +
        '"new york, ny",2,1\r\n' +
        '"say ""hi""","doc,with,commas",0\r\n' +
        "'=cmd|calc,-5,2\r\n" +
        'no judgments yet\r\n',
    )
    expect(formatJudgments('quepid-csv', TWO_RATERS)).toBe(
      "query,docid,ann,'=bob\r\n" + 'paris,Q90,3,2\r\n' + 'paris,Q167646,,1\r\n' + '"new york, ny",Q60,2,\r\n' + 'no judgments yet\r\n',
    )
  })

  it("writes a case's ratings, query,docid,rating, when one grade per item is asked for: the aggregate (rounded half up) or one rater's", () => {
    // Q90: ann 3 and =bob 2, a mean of 2.5, written 3.
    expect(formatJudgments('quepid-csv', TWO_RATERS, { kind: 'aggregate' })).toBe(
      'query,docid,rating\r\nparis,Q90,3\r\nparis,Q167646,1\r\n"new york, ny",Q60,2\r\nno judgments yet\r\n',
    )
    expect(formatJudgments('quepid-csv', TWO_RATERS, { kind: 'rater', rater: '=bob' })).toBe(
      'query,docid,rating\r\nparis,Q90,2\r\nparis,Q167646,1\r\n"new york, ny"\r\nno judgments yet\r\n',
    )
  })

  it('exported with two raters and imported into an empty copy of the set, gives back the same judgments: query, item, rater, grade', () => {
    const text = formatJudgments('quepid-csv', TWO_RATERS)
    const copy = { ...TWO_RATERS, raters: [], judgments: [] }
    const read = imported('quepid-csv', text, copy, 'exported.csv')
    expect(read.newQueries).toEqual([])
    const back = withImport({ ...emptyWorkspace(), sets: [copy] }, copy.name, read).sets![0]!
    const key = (j: { query: string; item: string; rater: string }) => `${j.query} ${j.item} ${j.rater}`
    expect([...back.judgments].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...TWO_RATERS.judgments].sort((a, b) => key(a).localeCompare(key(b))))
    expect(back.raters).toEqual([
      { name: 'ann', kind: 'import' },
      { name: '=bob', kind: 'import' },
    ])
  })

  it("reads a Quepid book's judgements: each column a rater, Quepid's guard on a name and an empty cell read past", () => {
    const text = 'query,docid,Ann Smith, @bob,Anonymous\nparis,Q90,3,2,\nparis,Q64,,,0\nlisbon,L1,1,,\n'
    const read = imported('quepid-csv', text, CITIES, 'book_7_judgements.csv')
    expect(read.judgments).toEqual([
      { query: 'q1', item: 'Q90', rater: 'Ann Smith', grade: 3 },
      { query: 'q1', item: 'Q90', rater: '@bob', grade: 2 },
      { query: 'q1', item: 'Q64', rater: 'Anonymous', grade: 0 },
      { query: 'q6', item: 'L1', rater: 'Ann Smith', grade: 1 },
    ])
    expect(read.newQueries).toEqual([{ id: 'q6', text: 'lisbon' }])
  })

  it("reads a case's ratings as the file's rater's (the name it is imported under)", () => {
    expect(imported('quepid-csv', 'query,docid,rating\nparis,Q90,1\n', CITIES, 'case_12_judgements.csv').judgments).toEqual([
      { query: 'q1', item: 'Q90', rater: 'case_12_judgements.csv', grade: 1 },
    ])
  })

  it('refuses a rater column with no name or named twice, a row with no grade, and one rater grading an item twice differently', () => {
    expect(refusal('quepid-csv', 'query,docid,ann,,ann\nparis,Q90,1,2,3\n').split('\n')).toEqual([
      "line 1, column 4: names no rater (a column of grades needs a rater's name for its header)",
      'line 1, column 5: names the rater "ann" again (column 3 does); a rater has one column',
    ])
    expect(refusal('quepid-csv', 'query,docid,ann\nparis,Q90,\nparis,Q64,7\n').split('\n')).toEqual([
      'line 2: has no grade from any rater for the docid "Q90"',
      `line 3, column 3: "7" is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)`,
    ])
    expect(refusal('quepid-csv', 'query,docid,ann,bob\nparis,Q90,1,2\nparis,Q90,1,3\n')).toBe(
      'line 3: grades the item "Q90" of the query "paris" 3 by "bob", but line 2 grades it 2; a file gives each query, item and rater one grade',
    )
  })

  it('cannot write a rater whose name a reader would take for a column of its own, and says what to export instead', () => {
    const set = makeSet([{ id: 'q1', text: 'x' }], [{ query: 'q1', item: 'a', rater: 'Rating', grade: 1 }])
    expect(() => formatJudgments('quepid-csv', set)).toThrow(/The rater "Rating" cannot head a column of Quepid CSV.*Export one grade per item/)
    expect(formatJudgments('quepid-csv', set, { kind: 'aggregate' })).toBe('query,docid,rating\r\nx,a,1\r\n')
  })

  it('refuses a file whose raters would take the set over the raters it may list', () => {
    const names = Array.from({ length: 1_001 }, (_, index) => `r${index}`)
    const text = `query,docid,${names.join(',')}\nparis,Q90,${names.map(() => '1').join(',')}\n`
    const result = parseJudgments('quepid-csv', text, CITIES, 'x.csv')
    expect(result).toEqual({ ok: false, message: 'The file names 1,000 raters the set does not have, which would bring it to 1,001, over the 1,000 a set may list.' })
  })


  it('reads quoted fields with commas, doubled quotes, CRLF and a BOM', () => {
    const text = '\uFEFFquery,docid,rating\r\n"new york, ny",Q60,3\r\n"say ""hi""","doc,with,commas",1\r\n'
    const read = imported('quepid-csv', text, CITIES, 'r1')
    expect(strip(read.judgments)).toEqual([
      { query: 'q2', item: 'Q60', grade: 3 },
      { query: 'q3', item: 'doc,with,commas', grade: 1 },
    ])
    expect(read.replaced).toBe(1)
  })

  it('takes the header in any order, by any of its spellings, and reads past other columns', () => {
    const text = 'Rating,Notes,Doc ID,Query\n2,"a note, quoted",Q90,paris\n'
    expect(strip(imported('quepid-csv', text).judgments)).toEqual([{ query: 'q1', item: 'Q90', grade: 2 }])
  })

  it("reads a row of a query's text alone (Quepid's query with no rating) as that query, judging nothing", () => {
    const read = imported('quepid-csv', 'query,docid,rating\nparis\nlisbon\nlisbon,,\n')
    expect(read.judgments).toEqual([])
    expect(read.newQueries).toEqual([{ id: 'q6', text: 'lisbon' }])
  })

  it('reads back the formula guard the export writes, and spaces around docid and rating', () => {
    const read = imported('quepid-csv', "query,docid,rating\n'=cmd|calc, '@x , 2 \n'+new,y,1\n")
    expect(strip(read.judgments)).toEqual([
      { query: 'q4', item: '@x', grade: 2 },
      { query: 'q6', item: 'y', grade: 1 },
    ])
    expect(read.newQueries).toEqual([{ id: 'q6', text: '+new' }])
  })

  it('refuses a line with the wrong number of fields', () => {
    expect(refusal('quepid-csv', 'query,docid,rating\nnew york, ny,Q60,3\nparis,Q90\n').split('\n')).toEqual([
      'line 2: expected 3 fields (query,docid,rating), found 4',
      'line 3: expected 3 fields (query,docid,rating), found 2',
    ])
  })

  it('refuses a header that does not name query, docid and rating, or query, docid and raters', () => {
    expect(refusal('quepid-csv', 'q,doc,grade\nparis,Q90,3\n')).toBe(
      'line 1: a Quepid CSV file starts with a header naming its columns query, docid and rating (in any order), or query, docid and a column per rater; this one names "q", "doc", "grade"',
    )
    expect(refusal('quepid-csv', 'query,docid\nparis,Q90\n')).toMatch(/^line 1: a Quepid CSV file starts with a header/)
    expect(refusal('quepid-csv', 'query;docid;rating\nparis;Q90;3\n')).toMatch(/separated by semicolons/)
    expect(refusal('quepid-csv', 'paris,Q90,3\n')).toMatch(/^line 1: a Quepid CSV file starts with a header/)
  })

  it('refuses a quoted field that never closes, with the line it opens on', () => {
    expect(refusal('quepid-csv', 'query,docid,rating\nparis,Q90,3\n"two\nlines",Q1,1\n"open,Q2,2\n')).toBe('line 5: a quoted field starts here and never closes')
  })

  it('counts lines inside quoted fields', () => {
    expect(refusal('quepid-csv', 'query,docid,rating\r\n"two\r\nlines",Q1,1\r\nparis,Q2,9\r\n')).toMatch(/^line 4: "9"/)
  })
})
