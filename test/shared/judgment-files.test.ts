import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_SET_JUDGMENTS, QuerySetSchema, type Judgment, type QuerySet } from '../../src/shared/relevance/query-set'
import {
  formatJudgments,
  formatRunFile,
  JUDGMENT_FORMATS,
  judgmentFileName,
  judgmentFormatOf,
  parseJudgments,
  type JudgmentFormat,
  type JudgmentImport,
} from '../../src/shared/relevance/judgment-files'

function makeSet(queries: { id: string; text: string }[], judgments: Judgment[] = [], extra: Partial<QuerySet> = {}): QuerySet {
  return QuerySetSchema.parse({ name: 'World cities', query: 'cities', queries, judgments, ...extra })
}

const CITIES = makeSet(
  [
    { id: 'q1', text: 'paris' },
    { id: 'q2', text: 'new york, ny' },
    { id: 'q3', text: 'say "hi"' },
    { id: 'q4', text: '=cmd|calc' },
    { id: 'q5', text: 'no judgments yet' },
  ],
  [
    { query: 'q1', item: 'Q90', grade: 3 },
    { query: 'q2', item: 'Q60', grade: 3 },
    { query: 'q1', item: 'Q167646', grade: 1 },
    { query: 'q3', item: 'doc,with,commas', grade: 0 },
    { query: 'q4', item: '-5', grade: 2 },
    { query: 'q2', item: '10', grade: 2 },
    { query: 'q2', item: '2', grade: 1 },
  ],
)

function imported(format: JudgmentFormat, text: string, set: Pick<QuerySet, 'queries' | 'judgments' | 'scale'> = CITIES, by = 'import'): JudgmentImport {
  const result = parseJudgments(format, text, set, by)
  if (!result.ok) throw new Error(`expected the file to be read, got: ${result.message}`)
  return result.import
}

function refusal(format: JudgmentFormat, text: string, set: Pick<QuerySet, 'queries' | 'judgments' | 'scale'> = CITIES): string {
  const result = parseJudgments(format, text, set, 'import')
  if (result.ok) throw new Error('expected the file to be refused')
  expect(result).not.toHaveProperty('import')
  return result.message
}

const strip = (judgments: readonly Judgment[]) => judgments.map(({ query, item, grade }) => ({ query, item, grade }))

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
      const byKey = (a: Judgment, b: Judgment) => `${a.query} ${a.item}`.localeCompare(`${b.query} ${b.item}`)
      if (format === 'rre-json') expect(strip(back.judgments).sort(byKey)).toEqual([...inFileOrder].sort(byKey))
      else expect(strip(back.judgments)).toEqual(inFileOrder)
      expect(back.judgments.every((judgment) => judgment.by === 'import')).toBe(true)
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
          queries.forEach((query, q) => items.forEach((item, i) => (q + i) % 3 !== 0 && judgments.push({ query: query.id, item, grade: grades[(q * 7 + i) % 30]! })))
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
          const key = (j: Judgment) => `${j.query} ${j.item}`
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
  it('Quepid CSV: quoted where needed, formulas guarded, a query with no judgment as its text alone, CRLF and no BOM', () => {
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

  it('TREC qrels: qid 0 docid rel, a line each, in set order', () => {
    expect(formatJudgments('trec-qrels', CITIES)).toBe(
      'q1 0 Q90 3\nq1 0 Q167646 1\nq2 0 Q60 3\nq2 0 10 2\nq2 0 2 1\nq3 0 doc,with,commas 0\nq4 0 -5 2\n',
    )
  })

  it('TREC qrels: an item with white space cannot be written, and the error names it', () => {
    const set = makeSet([{ id: 'q1', text: 'x' }], [{ query: 'q1', item: 'two words', grade: 1 }])
    expect(() => formatJudgments('trec-qrels', set)).toThrow(/"two words" of the query "q1".*white space/)
  })

  it('RRE: a query group a query, gains as {"docid": {"gain": g}} in the set order (numeric docids too), id_field and index', () => {
    const text = formatJudgments('rre-json', CITIES)
    const json = JSON.parse(text) as { index: string; id_field: string; query_groups: { name: string; queries: { placeholders: Record<string, string> }[]; relevant_documents: Record<string, { gain: number }> }[] }
    expect(json.index).toBe('World cities')
    expect(json.id_field).toBe('id')
    expect(json.query_groups.map((group) => group.name)).toEqual(CITIES.queries.map((query) => query.text))
    expect(json.query_groups[1]!.queries[0]!.placeholders).toEqual({ $query: 'new york, ny' })
    expect(json.query_groups[1]!.relevant_documents).toEqual({ Q60: { gain: 3 }, '10': { gain: 2 }, '2': { gain: 1 } })
    expect(json.query_groups[4]!.relevant_documents).toEqual({})
    // The text keeps the set's order, where a JS object would list "2" and "10" first.
    expect(text.indexOf('"Q60"')).toBeLessThan(text.indexOf('"10"'))
    expect(text.indexOf('"10"')).toBeLessThan(text.indexOf('"2"'))
    expect(text.endsWith('}\n')).toBe(true)
  })

  it('is byte-stable', () => {
    for (const format of JUDGMENT_FORMATS) expect(formatJudgments(format, structuredClone(CITIES))).toBe(formatJudgments(format, CITIES))
  })
})

describe('Quepid CSV', () => {
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

  it('counts the judgments that replace one of the set with another grade', () => {
    const read = imported('quepid-csv', 'query,docid,rating\nparis,Q90,3\nparis,Q167646,2\nparis,new,0\n')
    expect(read.replaced).toBe(1)
    expect(read.judgments).toHaveLength(3)
  })

  it('accepts a whole grade written with a zero fraction', () => {
    expect(strip(imported('quepid-csv', 'query,docid,rating\nparis,Q90,2.0\n').judgments)).toEqual([{ query: 'q1', item: 'Q90', grade: 2 }])
  })
})

describe('TREC qrels', () => {
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
})

describe('RRE ratings', () => {
  const rre = (value: unknown) => JSON.stringify(value, null, 2)

  it('reads topics → query groups → queries, relevant_documents as {"docid": {"gain": g}}, for every query of the group', () => {
    // The shape of RRE's own example (rre-maven-archetype's ratings_example.json).
    const text = rre({
      index: 'core1',
      corpora_file: 'electric_basses.json',
      id_field: 'id',
      topics: [
        {
          description: 'Fender basses',
          query_groups: [
            {
              name: 'Brand search',
              queries: [
                { template: 'only_q.json', placeholders: { $query: 'paris' } },
                { template: 'filter_by_language.json', placeholders: { $lang: 'eng', $query: 'fender' } },
              ],
              relevant_documents: { '1': { gain: 3 }, '2': { gain: 2 } },
            },
          ],
        },
      ],
    })
    const read = imported('rre-json', text)
    expect(read.newQueries).toEqual([{ id: 'q6', text: 'fender' }])
    expect(strip(read.judgments)).toEqual([
      { query: 'q1', item: '1', grade: 3 },
      { query: 'q1', item: '2', grade: 2 },
      { query: 'q6', item: '1', grade: 3 },
      { query: 'q6', item: '2', grade: 2 },
    ])
  })

  it('reads relevant_documents as {"gain": ["docid", …]} too, and both shapes in one object', () => {
    const text = rre({
      query_groups: [{ name: 'g', queries: [{ placeholders: { $query: 'paris' } }], relevant_documents: { '3': ['Q90', 'Q7252'], '0': ['Q1'], Q64: { gain: 1 } } }],
    })
    expect(strip(imported('rre-json', text).judgments).sort((a, b) => a.item.localeCompare(b.item))).toEqual([
      { query: 'q1', item: 'Q1', grade: 0 },
      { query: 'q1', item: 'Q64', grade: 1 },
      { query: 'q1', item: 'Q7252', grade: 3 },
      { query: 'q1', item: 'Q90', grade: 3 },
    ])
  })

  it("reads Quepid's RRE export (queries at the top, relevant_documents on each) and RRE's generator's list form with its query_placeholder", () => {
    const quepid = rre({ id_field: 'id', index: 'case', template: 'template.json', queries: [{ placeholders: { $query: 'paris' }, relevant_documents: { '2': ['Q90'] } }] })
    expect(strip(imported('rre-json', quepid).judgments)).toEqual([{ query: 'q1', item: 'Q90', grade: 2 }])
    const generated = rre({
      index: 'x',
      id_field: 'id',
      query_placeholder: 'query',
      query_groups: [{ name: 'paris', queries: [{ template: 't.json', placeholders: { other: 'no', query: 'paris' } }], relevant_documents: [{ document_id: 'doc1', gain: 2 }] }],
    })
    expect(strip(imported('rre-json', generated).judgments)).toEqual([{ query: 'q1', item: 'doc1', grade: 2 }])
  })

  it('takes the first placeholder when there is no $query', () => {
    const text = rre({ query_groups: [{ queries: [{ placeholders: { $q: 'rome', $lang: 'it' } }], relevant_documents: { Q220: { gain: 3 } } }] })
    expect(imported('rre-json', text).newQueries).toEqual([{ id: 'q6', text: 'rome' }])
  })

  it('reports a problem with its JSON path', () => {
    const groups = [0, 1, 2].map((n) => ({ name: `g${n}`, queries: [{ placeholders: { $query: 'paris' } }], relevant_documents: n === 2 ? { Q64: { gain: 7 } } : {} }))
    const message = refusal('rre-json', rre({ index: 'x', topics: [{ query_groups: groups }] }))
    expect(message).toBe(`topics[0].query_groups[2].relevant_documents.Q64.gain: "7" is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)`)
  })

  it('refuses a missing gain, a query with no placeholder, a docid that is not a text, and a gain key off the scale', () => {
    const text = rre({
      query_groups: [
        { queries: [{ template: 't' }], relevant_documents: {} },
        { queries: [{ placeholders: { $query: 'paris' } }], relevant_documents: { a: {}, '9': ['b'], '1': [{ id: 'c' }] } },
      ],
    })
    expect(refusal('rre-json', text).split('\n')).toEqual([
      `query_groups[0].queries[0].placeholders: has no "$query" placeholder (nor any other) to take the query's text from`,
      `query_groups[1].relevant_documents.1[0]: is not a docid (a text)`,
      `query_groups[1].relevant_documents.9: "9" is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)`,
      `query_groups[1].relevant_documents.a.gain: is missing: each rated document has a gain`,
    ])
  })

  it('refuses text that is not JSON, JSON that is not RRE ratings, and JSON nested absurdly deep', () => {
    expect(refusal('rre-json', '{"topics": [')).toMatch(/^The file is not JSON/)
    expect(refusal('rre-json', '[1, 2]')).toMatch(/not RRE ratings/)
    expect(refusal('rre-json', '{"name": "x"}')).toMatch(/not RRE ratings/)
    const deep = `{"topics": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    expect(refusal('rre-json', deep)).toMatch(/nests deeper than 64 levels/)
  })

  it('refuses one query and item given two gains in two groups, with both paths', () => {
    const text = rre({
      query_groups: [
        { queries: [{ placeholders: { $query: 'paris' } }], relevant_documents: { Q90: { gain: 3 } } },
        { queries: [{ placeholders: { $query: 'Paris' } }], relevant_documents: { Q90: { gain: 1 } } },
      ],
    })
    expect(refusal('rre-json', text)).toBe(
      'query_groups[1].relevant_documents.Q90: grades the item "Q90" of the query "paris" 1, but query_groups[0].relevant_documents.Q90 grades it 3; a file gives each query and item one grade',
    )
  })
})

describe('refusals', () => {
  it('a grade that is not on the scale, with its line', () => {
    const text = 'query,docid,rating\nparis,a,1\nparis,b,1\nparis,c,1\nparis,d,1\nparis,e,1\nparis,f,4\n'
    expect(refusal('quepid-csv', text)).toBe(`line 7: "4" is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)`)
  })

  it('a grade above, below or between the steps of the scale, or not whole', () => {
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

  it('a line with the wrong number of fields', () => {
    expect(refusal('trec-qrels', 'q1 0 Q90 3\nq1 0 Q64 2\nq1 Q60 1\n')).toBe('line 3: expected 4 fields (qid iter docid rel), found 3')
    expect(refusal('quepid-csv', 'query,docid,rating\nnew york, ny,Q60,3\nparis,Q90\n').split('\n')).toEqual([
      'line 2: expected 3 fields (query,docid,rating), found 4',
      'line 3: expected 3 fields (query,docid,rating), found 2',
    ])
  })

  it('a CSV header that does not name query, docid and rating', () => {
    expect(refusal('quepid-csv', 'q,doc,grade\nparis,Q90,3\n')).toBe(
      'line 1: a Quepid CSV file starts with a header naming its columns query, docid and rating (in any order); this one names "q", "doc", "grade"',
    )
    expect(refusal('quepid-csv', 'query;docid;rating\nparis;Q90;3\n')).toMatch(/separated by semicolons/)
    expect(refusal('quepid-csv', 'paris,Q90,3\n')).toMatch(/^line 1: a Quepid CSV file starts with a header/)
  })

  it('a quoted field that never closes, with the line it opens on', () => {
    expect(refusal('quepid-csv', 'query,docid,rating\nparis,Q90,3\n"two\nlines",Q1,1\n"open,Q2,2\n')).toBe('line 5: a quoted field starts here and never closes')
  })

  it('counts lines inside quoted fields', () => {
    expect(refusal('quepid-csv', 'query,docid,rating\r\n"two\r\nlines",Q1,1\r\nparis,Q2,9\r\n')).toMatch(/^line 4: "9"/)
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

  it('a file over 20 MiB of text', () => {
    const big = `query,docid,rating\n${'x'.repeat(21 * 1024 * 1024)}`
    expect(refusal('quepid-csv', big)).toMatch(/more than 20\.0 MiB of text/)
    // Counted in UTF-8: 7 million three-byte characters are 21 MB.
    expect(refusal('trec-qrels', `q1 0 ${'日'.repeat(7_000_000)} 1`)).toMatch(/more than 20\.0 MiB/)
  })

  it('a file of more than 200,000 judgments', () => {
    let text = ''
    for (let index = 0; index <= MAX_SET_JUDGMENTS; index++) text += `q1 0 d${index} 1\n`
    expect(refusal('trec-qrels', text)).toMatch(/more than 200,000 judgments/)
  })

  it('a file that would take the set over its limits of queries or judgments', () => {
    const queries = Array.from({ length: 9_999 }, (_, index) => ({ id: `q${index + 1}`, text: `t${index + 1}` }))
    expect(refusal('quepid-csv', 'query,docid,rating\nberlin,a,1\nrome,b,1\n', { queries, judgments: [] })).toBe(
      'The file names 2 queries the set does not have, which would bring it to 10,001, over the 10,000 a set may hold.',
    )
    const judgments = Array.from({ length: MAX_SET_JUDGMENTS - 1 }, (_, index) => ({ query: 'q1', item: `d${index}`, grade: 1 }))
    // d0 replaces one of the set's; d-new and d-newer are two more.
    expect(refusal('trec-qrels', 'q1 0 d0 2\nq1 0 d-new 1\nq1 0 d-newer 1\n', { queries: CITIES.queries, judgments })).toBe(
      "The file's judgments would bring the set to 200,001, over the 200,000 a set may hold.",
    )
  })

  it('an empty file', () => {
    expect(refusal('trec-qrels', '  \n')).toMatch(/empty/)
    expect(refusal('quepid-csv', '\uFEFF')).toMatch(/empty/)
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
