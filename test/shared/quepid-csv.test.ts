import { describe, expect, it } from 'vitest'
import { formatJudgments } from '../../src/shared/relevance/judgment-files'
import { CITIES, imported, refusal, strip } from '../fixtures/judgment-sets'

/** Quepid's CSV (query,docid,rating), written and read through the judgment files' entry points. */

describe('Quepid CSV', () => {
  it('writes a row a judgment: quoted where needed, formulas guarded, a query with no judgment as its text alone, CRLF and no BOM', () => {
    expect(formatJudgments('quepid-csv', CITIES)).toBe(
      'query,docid,rating\r\n' +
        'paris,Q90,3\r\n' +
        'paris,Q167646,1\r\n' +
        '"new york, ny",Q60,3\r\n' +
        '"new york, ny",10,2\r\n' +
        '"new york, ny",2,1\r\n' +
        '"say ""hi""","doc,with,commas",0\r\n' +
        "'=cmd|calc,-5,2\r\n" +
        'no judgments yet\r\n',
    )
  })

  it('reads quoted fields with commas, doubled quotes, CRLF and a BOM', () => {
    const text = '\uFEFFquery,docid,rating\r\n"new york, ny",Q60,3\r\n"say ""hi""","doc,with,commas",1\r\n'
    const read = imported('quepid-csv', text)
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

  it('refuses a header that does not name query, docid and rating', () => {
    expect(refusal('quepid-csv', 'q,doc,grade\nparis,Q90,3\n')).toBe(
      'line 1: a Quepid CSV file starts with a header naming its columns query, docid and rating (in any order); this one names "q", "doc", "grade"',
    )
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
