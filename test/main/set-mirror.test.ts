import { describe, expect, it } from 'vitest'
import { JUDGMENTS_PER_PART, type SetPart } from '../../src/main/workspaces/file-thread-protocol'
import { RatingIndex, type Rating } from '../../src/main/workspaces/rating-index'
import { SetMirror } from '../../src/main/workspaces/set-mirror'
import type { Judgment, QuerySet } from '../../src/shared/relevance/query-set'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'

/**
 * Main's record of the sets the workspace file thread holds: a set goes in
 * full (its judgments in parts) the first time, then by id with the ratings
 * taken since. Checked by playing the thread's side with the same ratings.
 */

const judgments = (n: number): Judgment[] => Array.from({ length: n }, (_, i) => ({ query: 'q1', item: `i${i}`, rater: 'r1', grade: 1 }))
const set = (name: string, n = 0): QuerySet => ({ name, query: 'Template', queries: [{ id: 'q1', text: 'paris' }], judgments: judgments(n) })
const workspaceOf = (sets?: QuerySet[]) => ({ ...emptyWorkspace(), ...(sets ? { sets } : {}) })

async function encode(mirror: SetMirror, workspace: ReturnType<typeof workspaceOf>) {
  const parts: SetPart[] = []
  const document = await mirror.encode(workspace, (part) => parts.push(part))
  return { document, parts }
}

describe('SetMirror', () => {
  it('sends a new set in full, its judgments in parts of 10,000, and decodes the reply to the same sets', async () => {
    const mirror = new SetMirror()
    const workspace = workspaceOf([set('Big', JUDGMENTS_PER_PART + 5), set('Empty')])
    const { document, parts } = await encode(mirror, workspace)
    expect(document.sets).toEqual([
      { full: 'm1', set: { name: 'Big', query: 'Template', queries: [{ id: 'q1', text: 'paris' }] } },
      { full: 'm2', set: { name: 'Empty', query: 'Template', queries: [{ id: 'q1', text: 'paris' }] } },
    ])
    expect(parts.map((part) => [part.set, 'judgments' in part ? part.judgments?.length : null])).toEqual([
      ['m1', JUDGMENTS_PER_PART],
      ['m1', 5],
    ])
    expect([document.id, document.drop, document.top]).toEqual([mirror.documentId(workspace), [], emptyWorkspace()])

    const received = new Map([['m1', parts.flatMap((part) => ('judgments' in part ? part.judgments ?? [] : []))]])
    const back = mirror.decode(document, received, null)
    expect(back).toEqual(workspace)
    expect(mirror.documentId(back)).toBe(document.id)
  })

  it('a set the thread holds goes by id with the ratings since, and only those; one no longer open is dropped', async () => {
    const mirror = new SetMirror()
    const index = new RatingIndex()
    const first = workspaceOf([set('Cities', 2), set('Gone')])
    await encode(mirror, first)

    const rate = (from: QuerySet, rating: Rating) => {
      const to = index.ratedSet(from, rating)!.set
      mirror.rated(from, to, rating)
      return to
    }
    const r1: Rating = { set: 'Cities', query: 'q1', item: 'new', rater: 'r1', grade: 3 }
    const r2: Rating = { set: 'Cities', query: 'q1', item: 'i0', rater: 'r1', grade: null }
    const after = rate(rate(first.sets![0]!, r1), r2)

    const { document, parts } = await encode(mirror, workspaceOf([after]))
    expect(document.sets).toEqual([{ ref: 'm1', ratings: [r1, r2] }])
    expect([parts, document.drop]).toEqual([[], ['m2']])
    // Sent once: the next document with the same set carries no rating again.
    expect((await encode(mirror, workspaceOf([after]))).document.sets).toEqual([{ ref: 'm1', ratings: [] }])
    // A reply naming the set by id gives back main's own object.
    expect(mirror.decode({ id: mirror.reserveDocumentId(), top: emptyWorkspace(), sets: [{ ref: 'm1', ratings: [] }], drop: [] }, new Map(), workspaceOf([after])).sets![0]).toBe(after)
  })

  it('an edited copy of a set (not a rating of it) goes in full; after a reset every set does', async () => {
    const mirror = new SetMirror()
    const original = set('Cities', 1)
    await encode(mirror, workspaceOf([original]))
    const edited = { ...original, notes: 'changed' }
    expect((await encode(mirror, workspaceOf([edited]))).document.sets).toMatchObject([{ full: 'm2' }])
    mirror.reset()
    expect((await encode(mirror, workspaceOf([edited]))).document.sets).toMatchObject([{ full: 'm3' }])
  })

  it('a document without sets stays without; document ids are kept per object and reserved ahead', async () => {
    const mirror = new SetMirror()
    const bare = workspaceOf()
    const { document } = await encode(mirror, bare)
    expect(document.sets).toBeNull()
    expect(mirror.decode(document, new Map(), null)).not.toHaveProperty('sets')
    expect(mirror.documentId(bare)).toBe(document.id)
    const reserved = mirror.reserveDocumentId()
    expect(reserved).toBe(document.id + 1)
    expect(mirror.documentId(workspaceOf())).toBe(reserved + 1)
  })
})
