import type { QueryRanking, Scored } from '../relevance/evaluation'
import { metricKey, parseMetrics } from '../relevance/metrics'
import { bootstrapInterval } from './bootstrap'
import type { ExperimentStats, MetricComparison, QueryDelta } from './experiment-record'
import { holmAdjust } from './holm'
import { pairedRandomizationTest } from './paired-randomization'

/**
 * An experiment: a baseline evaluation and one or more others of the same
 * query set, compared query by query. "Is B better than A over our queries,
 * and is the difference more than noise?" For each metric both sides have
 * and each other side: the paired queries' deltas (other − baseline), their
 * mean, wins, ties and losses, the paired randomization test's p-value,
 * Holm-adjusted over every comparison, and the bootstrap interval of the
 * mean delta. docs/METRICS.md ("Experiments") is the definition.
 *
 * Both sides' `scored` should be scored against the same judgments
 * (scoreRankings with the set as it is now): a delta then measures the
 * rankings, not the judgments made between the two runs.
 */

export type { ExperimentStats, MetricComparison, QueryDelta }

export interface ExperimentSide {
  label: string
  rankings: readonly QueryRanking[]
  scored: Scored
}

export interface ExperimentOptions {
  /** The significance level; default 0.05. */
  alpha?: number
  /** The randomization test's draws beyond `exactUpTo` non-zero deltas (paired-randomization.ts); default 10,000. */
  permutations?: number
  /** The bootstrap's draws (bootstrap.ts); default 10,000. */
  resamples?: number
  /** One seed for every comparison's test and interval; default 20261126. */
  seed?: number
  /** Enumerate every sign pattern up to this many non-zero deltas; default 16. */
  exactUpTo?: number
}

/** |delta| below this is a tie: the same figure, up to rounding. */
export const TIE = 1e-12
export const DEFAULT_ALPHA = 0.05

type Grades = ReadonlyMap<string, ReadonlyMap<string, number>>

export function experimentStats(
  baseline: ExperimentSide,
  others: readonly ExperimentSide[],
  grades: Grades,
  judgeDepth: number,
  options: ExperimentOptions = {},
): ExperimentStats {
  const alpha = options.alpha ?? DEFAULT_ALPHA
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha is a number between 0 and 1, not ${alpha}`)
  const testOptions = { permutations: options.permutations, seed: options.seed, exactUpTo: options.exactUpTo }
  const bootOptions = { resamples: options.resamples, seed: options.seed, level: 1 - alpha }

  const failed: ExperimentStats['failed'] = []
  const listFailed = (side: ExperimentSide, index: number) => {
    for (const ranking of side.rankings) if (ranking.error !== null) failed.push({ side: index, id: ranking.id, text: ranking.text, error: ranking.error })
  }
  listFailed(baseline, -1)
  others.forEach((other, index) => listFailed(other, index))

  const comparisons: MetricComparison[] = []
  const deltas: Record<string, QueryDelta[]> = {}
  const compared = new Set<string>()
  others.forEach((other, otherIndex) => {
    const shared = baseline.scored.metrics.filter((metric) => other.scored.metrics.includes(metric))
    const rows = queryRows(baseline, other, grades, judgeDepth)
    for (const metric of shared) {
      compared.add(metric)
      const list: QueryDelta[] = rows.map((row) => {
        const before = figure(row.baseline?.scores, metric)
        const after = figure(row.other?.scores, metric)
        const raw = before === null || after === null ? null : after - before
        return {
          id: row.id,
          text: row.text,
          baseline: before,
          other: after,
          delta: raw === null ? null : Math.abs(raw) < TIE ? 0 : raw,
          unjudged: row.unjudged,
          failed: row.failed,
        }
      })
      deltas[`${otherIndex}:${metric}`] = list
      comparisons.push(compare(metric, otherIndex, list, testOptions, bootOptions))
    }
  })

  const tested = comparisons.filter((comparison) => comparison.p !== null)
  const adjusted = holmAdjust(tested.map((comparison) => comparison.p!))
  tested.forEach((comparison, index) => {
    comparison.pAdjusted = adjusted[index]!
    comparison.significant = adjusted[index]! < alpha
  })
  return {
    metrics: baseline.scored.metrics.filter((metric) => compared.has(metric)),
    alpha,
    family: tested.length,
    comparisons,
    deltas,
    failed,
  }
}

function figure(scores: Record<string, number> | null | undefined, metric: string): number | null {
  const value = scores?.[metric]
  return typeof value === 'number' ? value : null
}

interface Row {
  id: string
  text: string
  baseline: Scored['queries'][number] | undefined
  other: Scored['queries'][number] | undefined
  unjudged: number
  failed: QueryDelta['failed']
}

/** One row per query of either side (the baseline's first, then the other's own), with what both sides say of it. */
function queryRows(baseline: ExperimentSide, other: ExperimentSide, grades: Grades, judgeDepth: number): Row[] {
  const byId = <T extends { id: string }>(list: readonly T[]) => new Map(list.map((entry) => [entry.id, entry]))
  const baseScores = byId(baseline.scored.queries)
  const otherScores = byId(other.scored.queries)
  const baseRankings = byId(baseline.rankings)
  const otherRankings = byId(other.rankings)
  const ids: string[] = []
  const seen = new Set<string>()
  for (const list of [baseline.scored.queries, baseline.rankings, other.scored.queries, other.rankings]) {
    for (const { id } of list) {
      if (seen.has(id)) continue
      seen.add(id)
      ids.push(id)
    }
  }
  return ids.map((id) => {
    const before = baseScores.get(id)
    const after = otherScores.get(id)
    const beforeRanking = baseRankings.get(id)
    const afterRanking = otherRankings.get(id)
    const baseFailed = (beforeRanking?.error ?? before?.error ?? null) !== null
    const otherFailed = (afterRanking?.error ?? after?.error ?? null) !== null
    return {
      id,
      text: before?.text ?? beforeRanking?.text ?? after?.text ?? afterRanking?.text ?? '',
      baseline: baseFailed ? undefined : before,
      other: otherFailed ? undefined : after,
      unjudged: unjudgedUnion(beforeRanking, afterRanking, grades.get(id), judgeDepth),
      failed: baseFailed && otherFailed ? 'both' : baseFailed ? 'baseline' : otherFailed ? 'other' : null,
    }
  })
}

/** Distinct unjudged items in either side's top k (repeats within a ranking removed, as unjudgedInTop does). */
function unjudgedUnion(a: QueryRanking | undefined, b: QueryRanking | undefined, own: ReadonlyMap<string, number> | undefined, k: number): number {
  const items = new Set<string>()
  for (const ranking of [a, b]) {
    if (!ranking || ranking.error !== null) continue
    const top = new Set<string>()
    for (const item of ranking.items) {
      if (top.size >= k) break
      top.add(item)
    }
    for (const item of top) items.add(item)
  }
  let count = 0
  for (const item of items) if (!own?.has(item)) count++
  return count
}

function compare(
  metric: string,
  other: number,
  list: readonly QueryDelta[],
  testOptions: Parameters<typeof pairedRandomizationTest>[1],
  bootOptions: Parameters<typeof bootstrapInterval>[1],
): MetricComparison {
  const paired = list.filter((row) => row.delta !== null)
  const n = paired.length
  const values = paired.map((row) => row.delta!)
  let wins = 0
  let losses = 0
  let baseSum = 0
  let otherSum = 0
  let deltaSum = 0
  for (const row of paired) {
    baseSum += row.baseline!
    otherSum += row.other!
    deltaSum += row.delta!
    if (row.delta! > 0) wins++
    else if (row.delta! < 0) losses++
  }
  const test = n === 0 ? null : pairedRandomizationTest(values, testOptions)
  return {
    metric,
    other,
    baselineMean: n === 0 ? null : baseSum / n,
    otherMean: n === 0 ? null : otherSum / n,
    n,
    meanDelta: n === 0 ? null : deltaSum / n,
    wins,
    ties: n - wins - losses,
    losses,
    p: test?.p ?? null,
    method: test?.method ?? null,
    permutations: test?.permutations ?? 0,
    pAdjusted: null,
    interval: bootstrapInterval(values, bootOptions),
    significant: false,
  }
}

/**
 * The release gate `--gate ndcg@10:-0.01`: the other side may not be worse
 * than the baseline by more than 0.01 on nDCG@10, significantly.
 *
 * - margin ≤ 0 (a guard against getting worse): fails iff
 *   meanDelta < margin and pAdjusted < alpha: a drop beyond the margin that
 *   is more than noise. A drop within the margin, or one the test cannot
 *   tell from noise, passes. `ndcg@10:0` fails on any significant drop.
 * - margin > 0 (a demand for an improvement of at least margin): fails
 *   unless meanDelta ≥ margin and pAdjusted < alpha: the improvement has to
 *   be there and be more than noise.
 * - No paired query (meanDelta null): fails, since nothing shows the rule holds.
 */
export function gateFails(c: MetricComparison, margin: number, alpha: number): boolean {
  if (c.meanDelta === null || c.pAdjusted === null) return true
  const significant = c.pAdjusted < alpha
  return margin <= 0 ? c.meanDelta < margin && significant : !(c.meanDelta >= margin && significant)
}

/** The largest |margin|: every figure lies in [0, 1]. */
const MAX_MARGIN = 1

/**
 * Reads a gate, `metric:margin`: a metric as a metric list writes it (any
 * case, `ndcg@10`) and a decimal number from −1 to 1 (`-0.01`, `0`, `+0.02`,
 * `.05`). The metric comes back as its key (`ndcg@10`).
 */
export function parseGate(text: string): { ok: true; metric: string; margin: number } | { ok: false; message: string } {
  const rule = 'write metric:margin, e.g. ndcg@10:-0.01 (fail when nDCG@10 is significantly more than 0.01 below the baseline)'
  const trimmed = text.trim()
  const colon = trimmed.lastIndexOf(':')
  if (colon < 0) return { ok: false, message: `"${trimmed}" is not a gate: ${rule}` }
  const metricText = trimmed.slice(0, colon).trim()
  const marginText = trimmed.slice(colon + 1).trim()
  if (metricText === '' || metricText.includes(',')) return { ok: false, message: `"${trimmed}" is not a gate: it names no single metric before the colon; ${rule}` }
  const parsed = parseMetrics(metricText)
  if (!parsed.ok) return { ok: false, message: `"${trimmed}" is not a gate: ${parsed.message}` }
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(marginText)) {
    return { ok: false, message: `"${trimmed}" is not a gate: "${marginText}" is not a margin (a decimal number such as -0.01); ${rule}` }
  }
  const margin = Number(marginText)
  if (Math.abs(margin) > MAX_MARGIN) return { ok: false, message: `"${trimmed}" is not a gate: the margin is from -1 to 1 (every figure lies in [0, 1]); ${rule}` }
  return { ok: true, metric: metricKey(parsed.metrics[0]!), margin: margin === 0 ? 0 : margin }
}
