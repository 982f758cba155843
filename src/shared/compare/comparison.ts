import { z } from 'zod'
import type { QueryReply } from '../query/query-reply'
import type { ResultItem } from '../responses'
import { itemKey, itemLabel } from './item-key'
import { compareRankings, RankChangeSchema } from './rank-metrics'

/**
 * One query on two targets, side by side: each side read from its answer (or
 * its error), and the figures of the two rankings. The compare view, the
 * `compare` command and their tests build it the same way.
 */

export const CompareSideSchema = z.object({
  /** "Demo · config default". */
  label: z.string(),
  /** HTTP status, or null when no answer came. */
  status: z.number().int().nullable(),
  /** The error in words when the side failed. */
  error: z.string().nullable(),
  total: z.number().int().nullable(),
  durationMs: z.number(),
  /** The top items' keys and labels, best first, to the compared depth. */
  keys: z.array(z.string()),
  labels: z.array(z.string()),
  /** The statistics' distribution (cutoff → results), for the chart. */
  stats: z.array(z.object({ cutoff: z.string(), numResults: z.number().int() })),
})

export const ComparisonSchema = z.object({
  depth: z.number().int(),
  a: CompareSideSchema,
  b: CompareSideSchema,
  /** Null when a side failed. */
  figures: z
    .object({ overlap: z.number().int(), jaccard: z.number(), rbo: z.number(), kendallTau: z.number().nullable() })
    .nullable(),
  changes: z.array(RankChangeSchema),
})

export type CompareSide = z.infer<typeof CompareSideSchema>
export type Comparison = z.infer<typeof ComparisonSchema>

export const COMPARE_DEPTHS = [10, 50, 100] as const
export type CompareDepth = (typeof COMPARE_DEPTHS)[number]

type Stat = CompareSide['stats'][number]

function statsOf(statistics: unknown): Stat[] {
  const stats = (statistics as { stats?: unknown } | null)?.stats
  if (!Array.isArray(stats)) return []
  return stats.flatMap((entry: unknown) => {
    const { cutoff, numResults } = (entry ?? {}) as { cutoff?: unknown; numResults?: unknown }
    return typeof cutoff === 'string' && Number.isInteger(numResults) ? [{ cutoff, numResults: numResults as number }] : []
  })
}

/** A side that answered: a `results` or `results,count` reply read into its top keys, total and distribution. */
export function answeredSide(label: string, reply: Pick<QueryReply, 'status' | 'body'>, durationMs: number, depth: number): CompareSide {
  const body = reply.body as unknown
  const [page, statistics] = Array.isArray(body) ? (body as [unknown, unknown]) : [body, null]
  const items = (((page as { items?: unknown } | null)?.items ?? []) as ResultItem[]).slice(0, depth)
  const total = (statistics as { total?: unknown } | null)?.total
  return {
    label,
    status: reply.status,
    error: null,
    total: typeof total === 'number' && Number.isInteger(total) ? total : null,
    durationMs,
    keys: items.map(itemKey),
    labels: items.map(itemLabel),
    stats: statsOf(statistics),
  }
}

/** A side that got an error status (`status`) or no answer at all (null), with the reason in words. */
export function failedSide(label: string, status: number | null, error: string, durationMs: number): CompareSide {
  return { label, status, error, total: null, durationMs, keys: [], labels: [], stats: [] }
}

/** Both sides and how their rankings differ; no figures when a side failed (there is nothing to compare it with). */
export function comparison(depth: number, a: CompareSide, b: CompareSide): Comparison {
  if (a.error !== null || b.error !== null) return { depth, a, b, figures: null, changes: [] }
  const ranked = compareRankings(a.keys, b.keys, depth)
  return {
    depth,
    a,
    b,
    figures: { overlap: ranked.overlap, jaccard: ranked.jaccard, rbo: ranked.rbo, kendallTau: ranked.kendallTau },
    changes: ranked.changes,
  }
}

/** The label of each key either side holds, A's first: what the rank-diff table writes beside an id. */
export function labelsByKey(result: Pick<Comparison, 'a' | 'b'>): Map<string, string> {
  const labels = new Map<string, string>()
  for (const side of [result.b, result.a]) side.keys.forEach((key, index) => labels.set(key, side.labels[index] ?? key))
  return labels
}
