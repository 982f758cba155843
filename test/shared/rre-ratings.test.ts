import { describe, expect, it } from 'vitest'
import { formatJudgments } from '../../src/shared/relevance/judgment-files'
import { CITIES, imported, makeSet, refusal, strip } from '../fixtures/judgment-sets'

describe('RRE ratings', () => {
  const rre = (value: unknown) => JSON.stringify(value, null, 2)

  it('writes a query group a query, gains as {"docid": {"gain": g}} in the set order (numeric docids too), id_field and index', () => {
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

  it("writes one gain per document, the set's aggregate (rounded half up) or one rater's: RRE's format names no rater", () => {
    const set = makeSet(
      [{ id: 'q1', text: 'one' }],
      [
        { query: 'q1', item: 'a', rater: 'ann', grade: 2 },
        { query: 'q1', item: 'a', rater: 'bob', grade: 1 },
        { query: 'q1', item: 'b', rater: 'bob', grade: 0 },
      ],
    )
    const documents = (text: string) => (JSON.parse(text) as { query_groups: { relevant_documents: unknown }[] }).query_groups[0]!.relevant_documents
    expect(documents(formatJudgments('rre-json', set))).toEqual({ a: { gain: 2 }, b: { gain: 0 } })
    expect(documents(formatJudgments('rre-json', set, { kind: 'rater', rater: 'bob' }))).toEqual({ a: { gain: 1 }, b: { gain: 0 } })
    expect(documents(formatJudgments('rre-json', set, { kind: 'rater', rater: 'ann' }))).toEqual({ a: { gain: 2 } })
    expect(() => formatJudgments('rre-json', set, { kind: 'rater', rater: 'nobody' })).toThrow(/no rater "nobody"; its raters are "ann", "bob"/)
  })

  it("reads every gain as the file's rater's", () => {
    const read = imported('rre-json', JSON.stringify({ queries: [{ placeholders: { $query: 'paris' }, relevant_documents: { Q90: { gain: 1 } } }] }), CITIES, 'rre.json')
    expect(read.judgments).toEqual([{ query: 'q1', item: 'Q90', rater: 'rre.json', grade: 1 }])
  })

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
