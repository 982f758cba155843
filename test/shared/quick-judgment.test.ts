import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { listOf } from '../../src/shared/capped-issues'
import { JudgmentSchema, quickJudgment } from '../../src/shared/relevance/query-set'
import { parseWorkspace } from '../../src/shared/workspace/workspace-file'
import { WORLD_FILE } from '../fixtures/big-workspace'

/**
 * quickJudgment stands in for JudgmentSchema on a set's judgments (opening a
 * set of 200,000). It must never take what the schema refuses, and what it
 * gives must be the schema's output to the byte (key order, -0): then every
 * problem a file has is still named by the schema, in its words.
 */

const long = (length: number) => 'x'.repeat(length)

/** Values each field may take: good ones, ones at and past each bound, and ones of the wrong type. */
const QUERIES = ['q1', 'Q-01', 'é😀', long(200), long(201), '', 'two words', 'tab\there', 'nb\u00a0sp', 'line\n', 7, null, ['q1']]
const ITEMS = ['doc-1', ' spaced item ', '😀', long(2_000), long(2_001), '', 3, false, { id: 'x' }]
const GRADES = [0, 1, 3, 100, -0, 101, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1', null]
/** A `by` left out (not there at all, as against there and undefined). */
const ABSENT = Symbol('absent')
const BYS: unknown[] = [ABSENT, 'Rater One', '', long(200), long(201), null, 5]

function judgment(query: unknown, item: unknown, grade: unknown, by: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { query, item, grade, ...(by === ABSENT ? {} : { by }), ...extra }
}

/** Entries of the wrong shape altogether. */
const ODD: unknown[] = [
  null,
  undefined,
  1,
  'q1',
  true,
  [],
  ['q1', 'doc-1', 1],
  {},
  { query: 'q1' },
  { query: 'q1', item: 'doc-1' },
  { item: 'doc-1', grade: 1 },
  { query: 'q1', grade: 1 },
  judgment('q1', 'doc-1', 1, ABSENT, { note: 'x' }),
  judgment('q1', 'doc-1', 1, 'R', { by2: 'x' }),
  judgment('q1', 'doc-1', 1, undefined),
  // Keys in another order: the output takes the schema's order.
  { grade: 2, by: 'R', item: 'doc-1', query: 'q1' },
  // A `__proto__` key as JSON.parse makes it: an own key the schema does not name.
  JSON.parse('{"query":"q1","item":"doc-1","grade":1,"__proto__":{"x":1}}'),
  Object.assign(Object.create(null), { query: 'q1', item: 'doc-1', grade: 1 }),
  Object.assign(new (class Judgment {})(), { query: 'q1', item: 'doc-1', grade: 1 }),
  new Date(0),
  new Map([['query', 'q1']]),
]

function corpus(): unknown[] {
  const entries: unknown[] = [...ODD]
  for (const query of QUERIES) for (const item of ITEMS) for (const grade of GRADES) for (const by of BYS) entries.push(judgment(query, item, grade, by))
  return entries
}

/** Exact sameness: key order and -0 count (toEqual would let both pass). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b)
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b
  const keysA = Object.keys(a)
  const keysB = Object.keys(b)
  return keysA.join('\u0000') === keysB.join('\u0000') && keysA.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}

function agrees(entry: unknown): void {
  const quick = quickJudgment(entry)
  const schema = JudgmentSchema.safeParse(entry)
  if (quick === undefined) return
  // Whatever the quick check takes, the schema takes, with the same output.
  expect(schema.success, JSON.stringify(entry)).toBe(true)
  expect(same(quick, schema.data), JSON.stringify(entry)).toBe(true)
}

describe('the quick check of a judgment', () => {
  it('takes nothing the schema refuses, and gives what the schema gives, over a corpus of good and bad entries', () => {
    const entries = corpus()
    let refused = 0
    for (const entry of entries) {
      agrees(entry)
      if (!JudgmentSchema.safeParse(entry).success) {
        refused++
        expect(quickJudgment(entry), JSON.stringify(entry)).toBeUndefined()
      }
    }
    // The corpus holds both kinds, many of each.
    expect(refused).toBeGreaterThan(10_000)
    expect(entries.length - refused).toBeGreaterThan(100)
  })

  it('takes the judgments the app writes (or its check would be the schema again)', () => {
    for (const entry of [judgment('q1', 'doc-1', 0, ABSENT), judgment('q00001', 'doc-0000000001', 3, 'Rater One'), judgment('é', '😀 x', 100, ''), { grade: 2, by: 'R', item: 'doc-1', query: 'q1' }]) {
      expect(quickJudgment(entry)).not.toBeUndefined()
      agrees(entry)
    }
  })

  it('agrees with the schema on any JSON object', () => {
    const field = fc.oneof(fc.string({ maxLength: 5 }), fc.integer({ min: -2, max: 102 }), fc.double(), fc.constant(null), fc.boolean())
    const entry = fc.oneof(
      fc.record({ query: field, item: field, grade: field, by: field }, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom('query', 'item', 'grade', 'by', 'note', '__proto__'), field),
      fc.jsonValue(),
    )
    fc.assert(fc.property(entry, (value) => agrees(JSON.parse(JSON.stringify(value) ?? 'null'))), { numRuns: 2_000 })
  })

  it('leaves a list with it the same problems, in the same words, as the schema alone', () => {
    const entries = corpus()
    const quick = listOf(JudgmentSchema, 200_000, quickJudgment).safeParse(entries)
    const plain = listOf(JudgmentSchema, 200_000).safeParse(entries)
    expect(quick.success).toBe(false)
    expect(quick.error!.issues).toEqual(plain.error!.issues)
    // And the same output when every entry is good.
    const good = entries.filter((entry) => JudgmentSchema.safeParse(entry).success)
    const quickGood = listOf(JudgmentSchema, 200_000, quickJudgment).safeParse(good)
    const plainGood = listOf(JudgmentSchema, 200_000).safeParse(good)
    expect(same(quickGood.data, plainGood.data)).toBe(true)
  })

  it('leaves the message of a workspace with bad judgments as it was', () => {
    const world = JSON.parse(readFileSync(WORLD_FILE, 'utf8')) as { sets: { queries: { id: string }[]; judgments: unknown[] }[] }
    const q = world.sets[0]!.queries[0]!.id
    world.sets[0]!.judgments = [judgment(q, 'doc-1', 1, ABSENT), judgment(q, '', 1, ABSENT), judgment('q 1', 'doc-2', 1.5, 'R'), judgment(q, 'doc-3', 1, ABSENT, { note: 'x' })]
    const read = parseWorkspace(JSON.stringify(world), 'bad.qxw.json')
    expect(read).toEqual({
      ok: false,
      message:
        '"bad.qxw.json" is not a valid workspace: sets[0].judgments[1].item: Too small: expected string to have >=1 characters; ' +
        'sets[0].judgments[2].query: is not a query id: it has white space in it (TREC files split their lines on white space); ' +
        'sets[0].judgments[2].grade: expected int, received number; sets[0].judgments[3]: Unrecognized key: "note".',
    })
  })
})
