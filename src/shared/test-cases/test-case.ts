import { z } from 'zod'
import { querySourceFields, querySourceProblems } from '../workspace/query-source'

/**
 * A test case as a workspace file keeps it (`tests`, next to `queries`): a
 * query (a saved one by name, or its own request) and what its answer must
 * show. Administrators write these to see what a configuration change does
 * to real queries before users do.
 */

const Key = z.string().min(1).max(2_000)
const Depth = z.number().int().min(1).max(100)

export const ExpectationsSchema = z
  .object({
    /** The HTTP status; 200 when left out. An expected error, such as 400, with `messageStartsWith`. */
    status: z.number().int().min(100).max(599).optional(),
    messageStartsWith: z.string().min(1).max(2_000).optional(),
    totalAtLeast: z.number().int().min(0).optional(),
    totalAtMost: z.number().int().min(0).optional(),
    /** Each id must be within the top `within`. */
    contains: z.array(z.object({ id: Key, within: Depth }).strict()).max(100).optional(),
    /** Each id must be at rank `rank` or better. */
    rankAtMost: z.array(z.object({ id: Key, rank: Depth }).strict()).max(100).optional(),
    /** Each id must not be within the top `within`. */
    absent: z.array(z.object({ id: Key, within: Depth }).strict()).max(100).optional(),
    /** A field of the first item equals a value: `id`, `class`, an attribute (`name`, `population`), or a dotted path into one. */
    firstItem: z
      .array(z.object({ field: z.string().min(1).max(500), equals: z.union([z.string(), z.number(), z.boolean(), z.null()]) }).strict())
      .max(100)
      .optional(),
    durationAtMostMs: z.number().int().min(1).optional(),
    /**
     * The top ids recorded from a run ("Update snapshot"); a later run must agree to at least `minRbo`.
     * `names` holds each id's name as it was then ('' for none), so a failure can name an item this
     * run no longer returns; files written before names were kept have none and still read.
     */
    snapshot: z
      .object({ ids: z.array(Key).min(1).max(100), names: z.array(z.string().max(2_000)).max(100).optional(), minRbo: z.number().min(0).max(1).default(0.9) })
      .strict()
      .superRefine((snapshot, context) => {
        if (snapshot.names !== undefined && snapshot.names.length !== snapshot.ids.length) {
          context.addIssue({
            code: 'custom',
            path: ['names'],
            message: `must give one name per id, in the same order ('' for none): ${snapshot.ids.length} ids, ${snapshot.names.length} names`,
          })
        }
      })
      .optional(),
  })
  .strict()

export const TestCaseSchema = z
  .object({
    name: z.string().min(1).max(200),
    ...querySourceFields,
    notes: z.string().max(100_000).optional(),
    expect: ExpectationsSchema,
  })
  .strip()
  .superRefine((testCase, context) => {
    for (const problem of querySourceProblems(testCase, 'a test case', 'names a saved query')) context.addIssue({ code: 'custom', ...problem })
  })

export type Expectations = z.infer<typeof ExpectationsSchema>
export type TestCase = z.infer<typeof TestCaseSchema>

/**
 * How deep a case that ranks items looks at the least: an item missed at
 * rank 1 is then reported where it was ("found at rank 4") rather than as
 * merely "not at rank 1".
 */
export const LOOK_DEPTH = 10

/** How many top results a case needs to see: its deepest expectation; at least LOOK_DEPTH when it ranks items, else one. */
export function depthNeeded(expect: Expectations): number {
  const ranks = (expect.contains?.length ?? 0) + (expect.rankAtMost?.length ?? 0) + (expect.absent?.length ?? 0) > 0
  const depths = [
    ranks ? LOOK_DEPTH : 1,
    ...(expect.contains ?? []).map((entry) => entry.within),
    ...(expect.absent ?? []).map((entry) => entry.within),
    ...(expect.rankAtMost ?? []).map((entry) => entry.rank),
    expect.snapshot?.ids.length ?? 0,
  ]
  return Math.min(100, Math.max(...depths))
}

/** Whether a case needs the total (a statistics request besides the page). */
export function needsTotal(expect: Expectations): boolean {
  return expect.totalAtLeast !== undefined || expect.totalAtMost !== undefined
}
