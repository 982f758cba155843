import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Judgment } from '../../src/shared/relevance/query-set'
import { formatJudgments, JUDGMENT_FORMATS, judgmentFileName, judgmentFormatOf } from '../../src/shared/relevance/judgment-files'
import { CITIES, imported, makeSet, strip } from '../fixtures/judgment-sets'

/**
 * The judgment files as one: every format round-trips a set, the same set
 * writes the same bytes, a file's format is known, its name offered. Each
 * format's own cases are in quepid-csv, trec-qrels and rre-ratings; what
 * they share in reading, in judgment-import.
 */

describe('round trips', () => {
  for (const format of JUDGMENT_FORMATS) {
    it(`${format}: the set's judgments come back as they were, on the same queries`, () => {
      const text = formatJudgments(format, CITIES)
      const back = imported(format, text)
      expect(back.newQueries).toEqual([])
      expect(back.replaced).toBe(0)
      // Read back in file order: the set's query order, each query's items in the set's order
      // (but for RRE's, read by JSON.parse, which lists integer-like keys first: "2", "10", then "Q60").
      const inFileOrder = CITIES.queries.flatMap((query) => CITIES.judgments.filter((judgment) => judgment.query === query.id))
      const byKey = (a: Pick<Judgment, 'query' | 'item'>, b: Pick<Judgment, 'query' | 'item'>) => `${a.query} ${a.item}`.localeCompare(`${b.query} ${b.item}`)
      if (format === 'rre-json') expect(strip(back.judgments).sort(byKey)).toEqual(strip(inFileOrder).sort(byKey))
      else expect(strip(back.judgments)).toEqual(strip(inFileOrder))
      // Quepid CSV names the rater in its column; qrels and RRE name none, so the grades are the file's (here "import").
      const rater = format === 'quepid-csv' ? 'r1' : 'import'
      expect(back.judgments.every((judgment) => judgment.rater === rater)).toBe(true)
    })

    it(`${format}: any set round-trips (property)`, () => {
      // Texts and items from a small alphabet of the characters each format must escape or guard; items have no white space (TREC splits on it).
      const word = (alphabet: string[]) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 6 })
      const textAlphabet = ['a', 'B', 'é', ',', '"', '\n', ' ', '=', '-', '@', '+', '1', '{', '日']
      const itemAlphabet = ['a', 'Z', ',', '"', '=', '-', '@', '1', '0', '.', '/', '😀', '}']
      const arbitrarySet = fc
        .record({
          texts: fc.uniqueArray(word(textAlphabet), { minLength: 1, maxLength: 5, selector: (t) => t.trim().toLowerCase() }),
          items: fc.uniqueArray(word(itemAlphabet), { minLength: 1, maxLength: 6 }),
          grades: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 30, maxLength: 30 }),
        })
        .map(({ texts, items, grades }) => {
          const queries = texts.map((text, index) => ({ id: `q${index + 1}`, text }))
          const judgments: Judgment[] = []
          queries.forEach((query, q) => items.forEach((item, i) => (q + i) % 3 !== 0 && judgments.push({ query: query.id, item, rater: 'r1', grade: grades[(q * 7 + i) % 30]! })))
          return makeSet(queries, judgments)
        })
      fc.assert(
        fc.property(arbitrarySet, (set) => {
          // A qrels file of no judgment is empty, and an empty file is refused as the wrong file.
          fc.pre(format !== 'trec-qrels' || set.judgments.length > 0)
          const text = formatJudgments(format, set)
          expect(formatJudgments(format, set)).toBe(text)
          const back = imported(format, text, set)
          expect(back.newQueries).toEqual([])
          const key = (j: Pick<Judgment, 'query' | 'item'>) => `${j.query} ${j.item}`
          expect(strip(back.judgments).sort((a, b) => key(a).localeCompare(key(b)))).toEqual(strip(set.judgments).sort((a, b) => key(a).localeCompare(key(b))))
        }),
        { numRuns: 60 },
      )
    })
  }

  it('an empty set writes and reads nothing', () => {
    const empty = makeSet([])
    expect(formatJudgments('quepid-csv', empty)).toBe('query,docid,rating\r\n')
    expect(formatJudgments('trec-qrels', empty)).toBe('')
    expect(imported('quepid-csv', 'query,docid,rating\r\n', empty).judgments).toEqual([])
  })
})

describe('writing', () => {

  it('is byte-stable', () => {
    for (const format of JUDGMENT_FORMATS) expect(formatJudgments(format, structuredClone(CITIES))).toBe(formatJudgments(format, CITIES))
  })
})

describe('formats and names', () => {
  it('knows a format by its extension, else by its first lines', () => {
    expect(judgmentFormatOf('ratings.CSV', '')).toBe('quepid-csv')
    expect(judgmentFormatOf('x.qrels', '')).toBe('trec-qrels')
    expect(judgmentFormatOf('ratings.json', '')).toBe('rre-json')
    expect(judgmentFormatOf('case_12_trec.txt', '1 0 doc1 1\n')).toBe('trec-qrels')
    expect(judgmentFormatOf('case_12_trec.txt', '')).toBe('trec-qrels')
    expect(judgmentFormatOf('export.txt', '\uFEFFQuery,DocID,Rating\r\n')).toBe('quepid-csv')
    // A Quepid book's judgements: a column per rater where a case's have rating.
    expect(judgmentFormatOf('export.txt', 'query,docid,Ann Smith,Bob\r\n')).toBe('quepid-csv')
    expect(judgmentFormatOf('export', 'query,docid\r\n')).toBeNull()
    expect(judgmentFormatOf('ratings', '  {"topics": []}')).toBe('rre-json')
    expect(judgmentFormatOf('judgments', '# comment\nq1 0 d 2\n')).toBe('trec-qrels')
    expect(judgmentFormatOf('notes.md', '# Notes\nsome text\n')).toBeNull()
  })

  it('offers the set name as a safe file name', () => {
    expect(judgmentFileName('trec-qrels', 'World cities')).toBe('World cities.qrels')
    expect(judgmentFileName('quepid-csv', 'World cities')).toBe('World cities.csv')
    expect(judgmentFileName('rre-json', 'World cities')).toBe('World cities.json')
    expect(judgmentFileName('quepid-csv', 'a/b\\c: "d"?')).toBe('a b c d.csv')
    expect(judgmentFileName('quepid-csv', '..hidden. ')).toBe('hidden.csv')
    expect(judgmentFileName('quepid-csv', 'evil\u202Etxt.exe')).toBe('evil txt.exe.csv')
    expect(judgmentFileName('quepid-csv', '???')).toBe('judgments.csv')
    expect(judgmentFileName('quepid-csv', 'CON')).toBe('CON judgments.csv')
    // 160 bytes of UTF-8 at most (test/shared/file-names.test.ts): 80 emoji would be 320, more than a file name may have.
    expect(judgmentFileName('quepid-csv', '😀'.repeat(100))).toBe(`${'😀'.repeat(40)}.csv`)
  })
})

