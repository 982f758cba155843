import { describe, expect, it } from 'vitest'
import { chooseFewShot, FEW_SHOT_SPARE, fewShotChooser, fewShotQueries } from '../../src/shared/relevance/few-shot'
import { DEFAULT_SCALE, type Judgment, type QuerySet } from '../../src/shared/relevance/query-set'

/**
 * Few-shot from people (issue 36, point 5): examples are the set's
 * people-graded items whose content is known, with the people's grade (the
 * set's aggregate) and the query's notes, drawn from a fixed seed, and
 * never from the query being judged.
 */

const queries = [
  { id: 'q1', text: 'paris', notes: 'The capital first.' },
  { id: 'q2', text: 'lisbon' },
  { id: 'q3', text: 'osaka' },
  { id: 'q4', text: 'cairo' },
]

function judgment(query: string, item: string, rater: string, grade: number): Judgment {
  return { query, item, rater, grade }
}

/** Every item of q1–q4 graded by alice (a person) and bob (an import); the judge's own and a rule's (a model) besides. */
const judgments: Judgment[] = [
  ...queries.flatMap((query) => ['a', 'b', 'c'].map((item, index) => judgment(query.id, `${query.id}-${item}`, 'alice', index))),
  ...queries.flatMap((query) => ['a', 'b', 'c'].map((item, index) => judgment(query.id, `${query.id}-${item}`, 'bob', index + 1))),
  judgment('q2', 'q2-model-only', 'llm:demo', 3),
  judgment('q3', 'q3-rule-only', 'rule', 3),
]

const set: Pick<QuerySet, 'queries' | 'judgments' | 'raters' | 'settings'> = {
  queries,
  judgments,
  raters: [
    { name: 'alice', kind: 'person' },
    { name: 'bob', kind: 'import' },
    { name: 'rule', kind: 'model' },
  ],
}

/** Every item's content known: its key as its name. */
function allContents(): Map<string, Map<string, Record<string, unknown>>> {
  const contents = new Map<string, Map<string, Record<string, unknown>>>()
  for (const each of judgments) {
    if (!contents.has(each.query)) contents.set(each.query, new Map())
    contents.get(each.query)!.set(each.item, { name: each.item })
  }
  return contents
}

describe('chooseFewShot', () => {
  it('on a set no person graded (the example\'s rules), takes its other raters\' grades, never an LLM judge\'s', () => {
    const rules: typeof set = {
      queries,
      judgments: [judgment('q1', 'p', 'rule', 3), judgment('q2', 'l', 'rule', 1), judgment('q2', 'l2', 'llm:demo', 2)],
      raters: [{ name: 'rule', kind: 'model' }],
    }
    const contents = new Map([
      ['q1', new Map([['p', { name: 'Paris' }]])],
      ['q2', new Map([['l', { name: 'Lisbon' }], ['l2', { name: 'Lisbon 2' }]])],
    ])
    expect(chooseFewShot({ set: rules, scale: DEFAULT_SCALE, count: 5, seed: 1, queryId: 'q3', contents }).map((example) => [example.fields.name, example.grade])).toEqual(
      expect.arrayContaining([
        ['Paris', 3],
        ['Lisbon', 1],
      ]),
    )
    expect(chooseFewShot({ set: rules, scale: DEFAULT_SCALE, count: 5, seed: 1, queryId: 'q3', contents })).toHaveLength(2)
  })

  it('never takes an example from the query being judged, and takes only people-graded items', () => {
    for (const query of queries) {
      const examples = chooseFewShot({ set, scale: DEFAULT_SCALE, count: 20, seed: 1, queryId: query.id, contents: allContents() })
      // Three items of each other query: the model-only and rule-only items are no people's grade.
      expect(examples).toHaveLength(9)
      expect(examples.map((example) => example.query)).not.toContain(query.text)
      expect(examples.map((example) => example.fields.name)).not.toContain('q2-model-only')
      expect(examples.map((example) => example.fields.name)).not.toContain('q3-rule-only')
    }
  })

  it("gives the people's grade by the set's aggregate, on the scale, with the query's notes", () => {
    const examples = chooseFewShot({ set, scale: DEFAULT_SCALE, count: 20, seed: 1, queryId: 'q4', contents: allContents() })
    // alice 0, 1, 2 and bob 1, 2, 3: the mean 0.5 is read as 0 (a tie goes to the lower grade), 1.5 as 1, 2.5 as 2.
    const byItem = new Map(examples.map((example) => [example.fields.name, example]))
    expect(byItem.get('q1-a')).toEqual({ query: 'paris', fields: { name: 'q1-a' }, grade: 0, notes: 'The capital first.' })
    expect(byItem.get('q2-c')).toEqual({ query: 'lisbon', fields: { name: 'q2-c' }, grade: 2 })
    // The optimistic rule gives bob's grades.
    const max = chooseFewShot({ set: { ...set, settings: { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'max' } }, scale: DEFAULT_SCALE, count: 20, seed: 1, queryId: 'q4', contents: allContents() })
    expect(max.find((example) => example.fields.name === 'q2-c')?.grade).toBe(3)
  })

  it('is the same draw run after run, whatever the order of the judgments; another seed draws another', () => {
    const input = { set, scale: DEFAULT_SCALE, count: 3, seed: 7, queryId: 'q1', contents: allContents() }
    const first = chooseFewShot(input)
    expect(chooseFewShot(input)).toEqual(first)
    expect(chooseFewShot({ ...input, set: { ...set, judgments: [...judgments].reverse() } })).toEqual(first)
    const draws = new Set([1, 2, 3, 4, 5].map((seed) => JSON.stringify(chooseFewShot({ ...input, seed }))))
    expect(draws.size).toBeGreaterThan(1)
  })

  it('shows only items whose content is known, and none when asked for none', () => {
    const contents = new Map([['q2', new Map([['q2-b', { name: 'lisbon b' }]])]])
    expect(chooseFewShot({ set, scale: DEFAULT_SCALE, count: 5, seed: 1, queryId: 'q1', contents })).toEqual([{ query: 'lisbon', fields: { name: 'lisbon b' }, grade: 1 }])
    expect(chooseFewShot({ set, scale: DEFAULT_SCALE, count: 0, seed: 1, queryId: 'q1', contents: allContents() })).toEqual([])
  })

  it("a chooser made once a run gives each query the first examples of one order that are not its own", () => {
    const choose = fewShotChooser({ set, scale: DEFAULT_SCALE, count: 4, seed: 3, contents: allContents() })
    const all = chooseFewShot({ set, scale: DEFAULT_SCALE, count: 12, seed: 3, queryId: 'none', contents: allContents() })
    for (const query of queries) {
      expect(choose(query.id)).toEqual(all.filter((example) => example.query !== query.text).slice(0, 4))
    }
  })

  it("a new grade elsewhere changes only the examples of the queries whose first N it enters", () => {
    // Eight queries of four items each, graded by alice; every item's content known.
    const wide = Array.from({ length: 8 }, (_, i) => ({ id: `w${i}`, text: `wide ${i}` }))
    const graded: Judgment[] = wide.flatMap((query) => ['a', 'b', 'c', 'd'].map((item, i) => judgment(query.id, `${query.id}-${item}`, 'alice', i % 4)))
    const known = (list: Judgment[]) => {
      const contents = new Map<string, Map<string, Record<string, unknown>>>()
      for (const each of list) (contents.get(each.query) ?? contents.set(each.query, new Map()).get(each.query)!).set(each.item, { name: each.item })
      return contents
    }
    const before = { queries: wide, judgments: graded, raters: [{ name: 'alice', kind: 'person' as const }] }
    let changedQueries = 0
    for (let extra = 0; extra < 20; extra++) {
      const added = judgment(`w${extra % 8}`, `new-${extra}`, 'alice', 1)
      const after = { ...before, judgments: [...graded, added] }
      for (const query of wide) {
        const was = chooseFewShot({ set: before, scale: DEFAULT_SCALE, count: 3, seed: 1, queryId: query.id, contents: known(graded) })
        const now = chooseFewShot({ set: after, scale: DEFAULT_SCALE, count: 3, seed: 1, queryId: query.id, contents: known(after.judgments) })
        if (now.some((example) => example.fields.name === added.item)) {
          changedQueries++
          // It took one place: the others are the same examples, in the same order.
          expect(now.filter((example) => example.fields.name !== added.item)).toEqual(was.slice(0, 2))
        } else expect(now).toEqual(was)
      }
    }
    // Some of the 20 new grades entered some query's first three (else the test shows nothing).
    expect(changedQueries).toBeGreaterThan(0)
  })

  it('draws only from the first N + FEW_SHOT_SPARE candidates, whose queries a run fetches besides its own', () => {
    const input = { set, scale: DEFAULT_SCALE, count: 2, seed: 1 }
    const pool = fewShotQueries(input)
    expect(pool.length).toBeLessThanOrEqual(2 + FEW_SHOT_SPARE)
    // Only the pool's queries' results known: the same examples as with every query's.
    const contents = new Map([...allContents()].filter(([query]) => pool.includes(query)))
    for (const query of queries) expect(chooseFewShot({ ...input, queryId: query.id, contents })).toEqual(chooseFewShot({ ...input, queryId: query.id, contents: allContents() }))
  })
})
