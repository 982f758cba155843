import { describe, expect, it } from 'vitest'
import { RatingIndex } from '../../src/main/workspaces/rating-index'
import { MAX_SET_JUDGMENTS, MAX_SET_RATERS, type QuerySet } from '../../src/shared/relevance/query-set'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { refusal } from '../fixtures/failure-of'
import { citiesSet } from '../fixtures/judgment-sets'

/** A rating taken into the open document at the cost of one judgment: added, replaced in place, cleared, or refused in a sentence. */

const workspaceWith = (sets: QuerySet[]) => ({ ...emptyWorkspace(), sets })

describe('RatingIndex', () => {
  it('adds a judgment, replaces a re-rated one in its place, and clears one; the other sets are the same objects', () => {
    const index = new RatingIndex()
    const other: QuerySet = { ...citiesSet(), name: 'Other' }
    const start = workspaceWith([citiesSet([{ query: 'q1', item: 'a', rater: 'r1', grade: 1 }]), other])

    const added = index.rated(start, { set: 'Cities', query: 'q2', item: 'b', rater: 'Ann', grade: 3 })
    expect(added.workspace.sets![0]!.judgments).toEqual([
      { query: 'q1', item: 'a', rater: 'r1', grade: 1 },
      { query: 'q2', item: 'b', rater: 'Ann', grade: 3 },
    ])
    // The judgment's JSON, {"query":"q2","item":"b","rater":"Ann","grade":3}, is 49 characters; 8 more for its indent, comma and line end.
    expect(added.added).toBe(57)
    expect(added.workspace.sets![1]).toBe(other)
    expect(added.set?.from).toBe(start.sets[0])
    expect(start.sets[0]!.judgments).toHaveLength(1)

    const rerated = index.rated(added.workspace, { set: 'Cities', query: 'q1', item: 'a', rater: 'r1', grade: 0 })
    expect(rerated.workspace.sets![0]!.judgments).toEqual([
      { query: 'q1', item: 'a', rater: 'r1', grade: 0 },
      { query: 'q2', item: 'b', rater: 'Ann', grade: 3 },
    ])
    expect(rerated.added).toBe(0)

    const cleared = index.rated(rerated.workspace, { set: 'Cities', query: 'q1', item: 'a', rater: 'r1', grade: null })
    expect(cleared.workspace.sets![0]!.judgments).toEqual([{ query: 'q2', item: 'b', rater: 'Ann', grade: 3 }])
    // Clearing what is not rated changes nothing: the very document comes back.
    const nothing = index.rated(cleared.workspace, { set: 'Cities', query: 'q1', item: 'a', rater: 'r1', grade: null })
    expect(nothing).toEqual({ workspace: cleared.workspace, added: 0 })
    expect(nothing.workspace).toBe(cleared.workspace)

    // Another rater's grade of the same item goes beside it; clearing one rater's leaves the other's.
    const second = index.rated(cleared.workspace, { set: 'Cities', query: 'q2', item: 'b', rater: 'Bo', grade: 1 })
    expect(second.workspace.sets![0]!.judgments).toEqual([
      { query: 'q2', item: 'b', rater: 'Ann', grade: 3 },
      { query: 'q2', item: 'b', rater: 'Bo', grade: 1 },
    ])
    const annGone = index.rated(second.workspace, { set: 'Cities', query: 'q2', item: 'b', rater: 'Ann', grade: null })
    expect(annGone.workspace.sets![0]!.judgments).toEqual([{ query: 'q2', item: 'b', rater: 'Bo', grade: 1 }])
  })

  it('refuses an unknown set or query, a grade off the scale, and a bad item, naming the rule', () => {
    const index = new RatingIndex()
    const workspace = workspaceWith([citiesSet(), { ...citiesSet(), name: 'Binary', scale: [{ grade: 0, label: 'No' }, { grade: 1, label: 'Yes' }] }])
    expect(refusal(() => index.rated(workspace, { set: 'Nope', query: 'q1', item: 'a', rater: 'r1', grade: 1 })).code).toBe('not_found')
    expect(refusal(() => index.rated(workspace, { set: 'Cities', query: 'q9', item: 'a', rater: 'r1', grade: 1 })).message).toBe('The query set "Cities" has no query with the id "q9".')
    expect(refusal(() => index.rated(workspace, { set: 'Binary', query: 'q1', item: 'a', rater: 'r1', grade: 2 })).message).toBe("grade: 2 is not a grade of the set's scale (0 No, 1 Yes).")
    const item = refusal(() => index.rated(workspace, { set: 'Cities', query: 'q1', item: 'x'.repeat(2_001), rater: 'r1', grade: 1 }))
    expect([item.code, item.message.startsWith('item: ')]).toEqual(['validation', true])
  })

  it('a set with as many raters as a set may takes no rating by a new one, but one by a rater it has', () => {
    const full = citiesSet(Array.from({ length: MAX_SET_RATERS }, (_, i) => ({ query: 'q1', item: 'a', rater: `r${i}`, grade: 1 })))
    const index = new RatingIndex()
    const refused = refusal(() => index.ratedSet(full, { set: 'Cities', query: 'q1', item: 'a', rater: 'newcomer', grade: 2 }))
    expect(refused).toMatchObject({ code: 'validation', message: 'rater: the set "Cities" has 1,000 raters, as many as a set may; this rating by "newcomer" was not made.' })
    expect(index.ratedSet(full, { set: 'Cities', query: 'q2', item: 'b', rater: 'r7', grade: 2 })?.set.judgments).toHaveLength(MAX_SET_RATERS + 1)
  })

  it('a set holding as many judgments as a set may takes no new one, but a re-rating still', () => {
    const full = citiesSet(Array.from({ length: MAX_SET_JUDGMENTS }, (_, i) => ({ query: 'q1', item: `i${i}`, rater: 'r1', grade: 1 })))
    const index = new RatingIndex()
    const refused = refusal(() => index.ratedSet(full, { set: 'Cities', query: 'q2', item: 'new', rater: 'r1', grade: 1 }))
    expect(refused.message).toBe('set.judgments: the set "Cities" holds 200,000 judgments, as many as a set may; this rating was not made.')
    expect(index.ratedSet(full, { set: 'Cities', query: 'q1', item: 'i7', rater: 'r1', grade: 2 })?.set.judgments[7]).toEqual({ query: 'q1', item: 'i7', rater: 'r1', grade: 2 })
  })

  it('takes a batch of ratings on one copy of the set, each on its own: one refused leaves the others taken', () => {
    const index = new RatingIndex()
    const workspace = { ...emptyWorkspace(), sets: [citiesSet([{ query: 'q1', item: 'p1', rater: 'llm:demo', grade: 1 }])] }
    const digest = 'a'.repeat(64)
    const batch = [
      { set: 'Cities', query: 'q1', item: 'p1', rater: 'llm:demo', grade: 3, explanation: 'Now exact.', promptDigest: digest },
      { set: 'Cities', query: 'q1', item: 'p2', rater: 'llm:demo', grade: 7 },
      { set: 'Cities', query: 'q9', item: 'x', rater: 'llm:demo', grade: 1 },
      { set: 'Cities', query: 'q2', item: 'l1', rater: 'llm:demo', grade: 2, explanation: 'Named so.', promptDigest: digest },
    ]
    const taken = index.ratedMany(workspace, 'Cities', batch)
    expect(taken.errors).toEqual([null, "grade: 7 is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect).", 'The query set "Cities" has no query with the id "q9".', null])
    expect(taken.set!.to.judgments).toEqual([
      { query: 'q1', item: 'p1', rater: 'llm:demo', grade: 3, explanation: 'Now exact.', promptDigest: digest },
      { query: 'q2', item: 'l1', rater: 'llm:demo', grade: 2, explanation: 'Named so.', promptDigest: digest },
    ])
    expect(taken.taken.map((rating) => rating.item)).toEqual(['p1', 'l1'])
    // The index moved with the set: a single rating after the batch re-grades in place.
    const again = index.rated(taken.workspace, { set: 'Cities', query: 'q2', item: 'l1', rater: 'llm:demo', grade: 0 })
    expect(again.workspace.sets![0]!.judgments.map((judgment) => `${judgment.item} ${judgment.grade}`)).toEqual(['p1 3', 'l1 0'])
    // A batch that changes nothing is the same document.
    expect(index.ratedMany(again.workspace, 'Cities', [{ set: 'Cities', query: 'q1', item: 'zz', rater: 'llm:demo', grade: null }]).workspace).toBe(again.workspace)
  })
})
