import { describe, expect, it } from 'vitest'
import { queriesFromLines, requireSet, withImport, withoutSet, withRating, withSet } from '../../src/shared/relevance/set-edits'
import { emptyWorkspace, type Workspace } from '../../src/shared/workspace/workspace-schema'
import { refusal } from '../fixtures/failure-of'
import { CITIES, makeSet } from '../fixtures/judgment-sets'

const workspace = (): Workspace => ({ ...emptyWorkspace(), sets: [CITIES] })

/** The code and message of the error an edit throws. */
function refused(edit: () => unknown): { code: string; message: string } {
  const { code, message } = refusal(edit)
  return { code, message }
}

describe('withSet', () => {
  it('adds a set with its name trimmed, and renames one, dropping judgments of queries it no longer has', () => {
    const added = withSet(emptyWorkspace(), { ...CITIES, name: '  World cities ' })
    expect(added.sets!.map((set) => set.name)).toEqual(['World cities'])
    const fewer = { ...CITIES, name: 'Capitals', queries: CITIES.queries.filter((query) => query.id === 'q1') }
    const renamed = withSet(workspace(), fewer, 'World cities')
    expect(renamed.sets!.map((set) => set.name)).toEqual(['Capitals'])
    expect(renamed.sets![0]!.judgments).toEqual([
      { query: 'q1', item: 'Q90', rater: 'r1', grade: 3 },
      { query: 'q1', item: 'Q167646', rater: 'r1', grade: 1 },
    ])
  })

  it('refuses an empty name, a name taken by another set, and a rename of a set that is not there', () => {
    expect(refused(() => withSet(workspace(), { ...CITIES, name: '  ' }))).toEqual({ code: 'validation', message: 'Name: give the query set a name.' })
    const other = makeSet([{ id: 'q1', text: 'x' }], [], { name: 'Other' })
    const two = withSet(workspace(), other)
    expect(refused(() => withSet(two, { ...other, name: 'World cities' }, 'Other'))).toEqual({
      code: 'validation',
      message: 'A query set named "World cities" exists; choose another name.',
    })
    expect(refused(() => withSet(workspace(), other, 'Gone'))).toEqual({ code: 'not_found', message: 'There is no query set named "Gone" in this workspace.' })
  })
})

describe('withoutSet and requireSet', () => {
  it('removes the set named, and says when there is none', () => {
    expect(withoutSet(workspace(), 'World cities').sets).toEqual([])
    expect(requireSet(workspace(), 'World cities')).toBe(CITIES)
    expect(refused(() => withoutSet(emptyWorkspace(), 'World cities')).code).toBe('not_found')
  })
})

describe('withRating', () => {
  it("sets one rater's grade beside the others', replacing only that rater's own; null clears it", () => {
    const rated = withRating(workspace(), 'World cities', { query: 'q1', item: 'Q90', rater: 'Ann', grade: 2 })
    const judgments = rated.sets![0]!.judgments
    expect(judgments.filter((judgment) => judgment.item === 'Q90')).toEqual([
      { query: 'q1', item: 'Q90', rater: 'r1', grade: 3 },
      { query: 'q1', item: 'Q90', rater: 'Ann', grade: 2 },
    ])
    expect(judgments).toHaveLength(CITIES.judgments.length + 1)
    const regraded = withRating(rated, 'World cities', { query: 'q1', item: 'Q90', rater: 'Ann', grade: 0 }).sets![0]!.judgments
    expect(regraded.filter((judgment) => judgment.item === 'Q90').map((judgment) => [judgment.rater, judgment.grade])).toEqual([['r1', 3], ['Ann', 0]])
    const cleared = withRating(rated, 'World cities', { query: 'q1', item: 'Q90', rater: 'r1', grade: null })
    expect(cleared.sets![0]!.judgments.filter((judgment) => judgment.item === 'Q90')).toEqual([{ query: 'q1', item: 'Q90', rater: 'Ann', grade: 2 }])
    // The workspace given is left as it was.
    expect(workspace().sets![0]!.judgments).toHaveLength(7)
  })

  it('refuses a grade off the scale, naming the scale, and a query the set has not', () => {
    expect(refused(() => withRating(workspace(), 'World cities', { query: 'q1', item: 'x', rater: 'r1', grade: 4 }))).toEqual({
      code: 'validation',
      message: "grade: 4 is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect).",
    })
    expect(refused(() => withRating(workspace(), 'World cities', { query: 'q9', item: 'x', rater: 'r1', grade: 1 }))).toEqual({
      code: 'not_found',
      message: 'The query set "World cities" has no query with the id "q9".',
    })
  })
})

describe('withImport', () => {
  it("adds the new queries and the file's judgments as its rater's, never overwriting another rater's grade", () => {
    const next = withImport(workspace(), 'World cities', {
      newQueries: [{ id: 'q6', text: 'lisbon' }],
      judgments: [
        { query: 'q1', item: 'Q90', rater: 'file', grade: 0 },
        { query: 'q6', item: 'Q597', rater: 'file', grade: 3 },
      ],
      replaced: 1,
    })
    const set = next.sets![0]!
    expect(set.queries.map((query) => query.id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6'])
    expect(set.judgments).toHaveLength(9)
    expect(set.judgments.filter((judgment) => judgment.item === 'Q90')).toEqual([
      { query: 'q1', item: 'Q90', rater: 'r1', grade: 3 },
      { query: 'q1', item: 'Q90', rater: 'file', grade: 0 },
    ])
    expect(set.raters).toEqual([
      { name: 'r1', kind: 'person' },
      { name: 'file', kind: 'import' },
    ])
    // The same file again replaces its own grades only.
    const again = withImport(next, 'World cities', { newQueries: [], judgments: [{ query: 'q1', item: 'Q90', rater: 'file', grade: 2 }], replaced: 1 }).sets![0]!
    expect(again.judgments.filter((judgment) => judgment.item === 'Q90').map((judgment) => [judgment.rater, judgment.grade])).toEqual([['r1', 3], ['file', 2]])
    expect(again.raters).toHaveLength(2)
    // A book exported by the app has Settle's column: it comes back as the adjudicator, not as an import.
    const settled = withImport(next, 'World cities', { newQueries: [], judgments: [{ query: 'q1', item: 'Q90', rater: 'adjudication', grade: 1 }], replaced: 0 }).sets![0]!
    expect(settled.raters).toContainEqual({ name: 'adjudication', kind: 'adjudication' })
  })
})

describe('queriesFromLines', () => {
  it('keeps the set\'s query for a text it has, gives the others free ids, and skips blank and repeated lines', () => {
    const existing = [
      { id: 'q2', text: 'paris' },
      { id: 'q1', text: 'rome' },
    ]
    expect(queriesFromLines(['paris', '  lyon ', '', 'lyon', 'nice', 'rome'], existing)).toEqual([
      { id: 'q2', text: 'paris' },
      { id: 'q3', text: 'lyon' },
      { id: 'q4', text: 'nice' },
      { id: 'q1', text: 'rome' },
    ])
    expect(queriesFromLines([], existing)).toEqual([])
  })
})
