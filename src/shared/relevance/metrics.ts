import type { Grades, MetricSettings, Scale } from './query-set'

/**
 * The relevance metrics a query-set evaluation computes for one query, as
 * pure functions; docs/METRICS.md ("Relevance metrics") is their definition
 * and says which tool agrees with each choice. A ranking is the list of item
 * ids a query returned, best first; an id that occurs twice counts at its
 * first place only. With linear gain, unjudged items counted as zero and
 * threshold 1, nDCG@k, P@k, AP, AP@k, RR, Recall@k and nDCG (no depth) are
 * trec_eval's ndcg_cut.k, P.k, map, map_cut.k, recip_rank, recall.k and
 * ndcg; with unjudged items skipped they are the same measures under
 * `trec_eval -J` (scripts/compare-trec-eval.ts checks this against the real
 * program).
 */

export type MetricName = 'ndcg' | 'p' | 'ap' | 'rr' | 'err' | 'recall' | 'coverage'

/** A metric and its depth: k null is "over the whole ranking evaluated" (not allowed for p and coverage). */
export interface MetricSpec {
  name: MetricName
  k: number | null
}

export const METRIC_NAMES: readonly MetricName[] = ['ndcg', 'p', 'ap', 'rr', 'err', 'recall', 'coverage']

/** The metrics that are only defined at a depth. */
const NEEDS_DEPTH: ReadonlySet<MetricName> = new Set<MetricName>(['p', 'coverage'])

export const MAX_METRIC_DEPTH = 10_000

export const DEFAULT_METRICS: MetricSpec[] = [
  { name: 'ndcg', k: 10 },
  { name: 'p', k: 10 },
  { name: 'ap', k: null },
  { name: 'rr', k: null },
  { name: 'err', k: 10 },
  { name: 'recall', k: 100 },
  { name: 'coverage', k: 10 },
]

const LABELS: Record<MetricName, string> = {
  ndcg: 'nDCG',
  p: 'P',
  ap: 'AP',
  rr: 'RR',
  err: 'ERR',
  recall: 'Recall',
  coverage: 'Coverage',
}

/** Names people write for a metric that has another name here. */
const OTHER_NAMES: Record<string, string> = {
  map: 'write ap (the mean of AP over the queries is MAP)',
  mrr: 'write rr (the mean of RR over the queries is MRR)',
  precision: 'write p@k, e.g. p@10',
  dcg: 'write ndcg@k, e.g. ndcg@10 (only the normalized form is computed)',
}

/** "ndcg@10", "ap": how a metric is keyed in scoreQuery's figures and written in a metric list. */
export function metricKey(spec: MetricSpec): string {
  return spec.k === null ? spec.name : `${spec.name}@${spec.k}`
}

/** metricKey, worked out once per spec: scoring a set asks it for every query. */
const keys = new WeakMap<MetricSpec, string>()
function keyOf(spec: MetricSpec): string {
  let key = keys.get(spec)
  if (key === undefined) keys.set(spec, (key = metricKey(spec)))
  return key
}

/** "nDCG@10", "P@10", "AP": how a metric is shown. */
export function metricLabel(spec: MetricSpec): string {
  return spec.k === null ? LABELS[spec.name] : `${LABELS[spec.name]}@${spec.k}`
}

/**
 * Reads a metric list such as "ndcg@10, p@10, ap, rr, err@10, recall@100,
 * coverage@10": entries separated by commas, names in any case, spaces
 * allowed around entries and around the @. Blank entries (a trailing comma)
 * are passed over. Refused, with the entry named: an unknown name, p or
 * coverage without a depth, a depth that is not a whole number from 1 to
 * 10000, an entry listed twice, and a list with no metric.
 */
export function parseMetrics(text: string): { ok: true; metrics: MetricSpec[] } | { ok: false; message: string } {
  const metrics: MetricSpec[] = []
  const seen = new Set<string>()
  for (const raw of text.split(',')) {
    const entry = raw.trim()
    if (entry === '') continue
    const match = /^([^@\s]+)\s*(?:@\s*(.*))?$/.exec(entry)
    if (!match) return { ok: false, message: `"${entry}" is not a metric: write a name, and a depth after @ where it has one (e.g. ndcg@10)` }
    const name = match[1]!.toLowerCase()
    if (!(METRIC_NAMES as readonly string[]).includes(name)) {
      const hint = OTHER_NAMES[name]
      return {
        ok: false,
        message: hint ? `"${entry}" is not a metric here: ${hint}` : `"${entry}" is not a metric: the metrics are ${METRIC_NAMES.join(', ')}`,
      }
    }
    const metricName = name as MetricName
    let k: number | null = null
    if (match[2] !== undefined) {
      const depth = match[2].trim()
      if (!/^\d+$/.test(depth) || Number(depth) < 1 || Number(depth) > MAX_METRIC_DEPTH) {
        return { ok: false, message: `"${entry}": the depth after @ is a whole number from 1 to ${MAX_METRIC_DEPTH}` }
      }
      k = Number(depth)
    } else if (NEEDS_DEPTH.has(metricName)) {
      return { ok: false, message: `"${entry}" needs a depth: write ${metricName}@10` }
    }
    const spec: MetricSpec = { name: metricName, k }
    const key = metricKey(spec)
    if (seen.has(key)) return { ok: false, message: `"${entry}" is listed twice (as ${key})` }
    seen.add(key)
    metrics.push(spec)
  }
  if (metrics.length === 0) return { ok: false, message: 'no metric is listed: write e.g. ndcg@10, p@10, ap' }
  return { ok: true, metrics }
}

/** The deepest depth any of the metrics is cut at; null when none has a depth (each reads the whole ranking evaluated). */
export function deepestK(metrics: readonly MetricSpec[]): number | null {
  let deepest: number | null = null
  for (const spec of metrics) if (spec.k !== null && (deepest === null || spec.k > deepest)) deepest = spec.k
  return deepest
}

/** The ids in order with repeats removed (each at its first place); the list itself when it has none, as answers almost never do. */
function distinct(ranking: readonly string[]): readonly string[] {
  const unique = new Set(ranking)
  return unique.size === ranking.length ? ranking : [...unique]
}

/** 1 / log2(i + 2) for i = 0, 1, …: DCG's discount of the item at rank i + 1, worked out once per rank. */
const discounts: number[] = []
function discount(index: number): number {
  for (let i = discounts.length; i <= index; i++) discounts.push(1 / Math.log2(i + 2))
  return discounts[index]!
}

/**
 * The grade an unjudged item reads as under 'zero': below every grade, so it
 * is never relevant, not even at threshold 0 (trec_eval gives it -1 too), and
 * gains nothing.
 */
const UNJUDGED = -1

/** exponential: 2^g − 1; linear: g; 0 for an unjudged item. */
function gainOf(grade: number, gain: MetricSettings['gain']): number {
  if (grade < 0) return 0
  return gain === 'exponential' ? 2 ** grade - 1 : grade
}

/** How many places a metric reads: its k, or the whole list when k is null or beyond the end. */
function depthOf(length: number, k: number | null): number {
  return k === null ? length : Math.min(k, length)
}

/** DCG = Σ gain(g_i) / log2(i + 1) over the first `depth` ranks i = 1, 2, … of the grades given. */
function dcg(grades: readonly number[], depth: number, gain: MetricSettings['gain']): number {
  let sum = 0
  for (let index = 0; index < depth; index++) {
    const value = gainOf(grades[index]!, gain)
    if (value > 0) sum += value * discount(index)
  }
  return sum
}

/** Clamps a figure into [0, 1]: sums of the same terms in another order can land a hair outside. */
function unit(value: number): number {
  return Math.min(1, Math.max(0, value))
}

/**
 * How many of the top k (repeats removed, nothing skipped) have no judgment.
 */
export function unjudgedInTop(ranking: readonly string[], grades: Grades, k: number): number {
  return unjudgedWithin(distinct(ranking), grades, k)
}

/** Unjudged items in the first k places of a list with no repeats. */
function unjudgedWithin(list: readonly string[], grades: Grades, k: number): number {
  let count = 0
  for (let index = 0; index < list.length && index < k; index++) if (!grades.has(list[index]!)) count++
  return count
}

/**
 * One query's figures, keyed by metricKey. ranking = item ids best first (as
 * returned; a repeated id counts at its first place only), grades = that
 * query's judgments. See docs/METRICS.md for each definition.
 */
export function scoreQuery(
  ranking: readonly string[],
  grades: Grades,
  metrics: readonly MetricSpec[],
  settings: MetricSettings,
  scale: Scale,
): Record<string, number> {
  const returned = distinct(ranking)
  // The ranking the metrics read: unjudged items kept as not relevant, or taken out (condensed list, trec_eval -J).
  const ranked: number[] = []
  for (const id of returned) {
    const grade = grades.get(id)
    if (grade !== undefined) ranked.push(grade)
    else if (settings.unjudged !== 'skip') ranked.push(UNJUDGED)
  }
  const threshold = settings.threshold
  /** All judged grades, best first: the ideal ranking; R: the query's relevant judged items, retrieved or not. */
  const ideal = [...grades.values()].sort((a, b) => b - a)
  let totalRelevant = 0
  while (totalRelevant < ideal.length && ideal[totalRelevant]! >= threshold) totalRelevant++
  // ERR's top grade: the scale's, or a judged grade above it should one be out of scale.
  const topGrade = Math.max(ideal[0] ?? 0, scale.length > 0 ? scale[scale.length - 1]!.grade : 0)
  /** Relevant items within the first `depth` places. */
  const relevantWithin = (depth: number) => {
    let count = 0
    for (let index = 0; index < depth; index++) if (ranked[index]! >= threshold) count++
    return count
  }

  const out: Record<string, number> = {}
  for (const spec of metrics) {
    if (spec.k === null && NEEDS_DEPTH.has(spec.name)) throw new RangeError(`${LABELS[spec.name]} needs a depth (e.g. ${spec.name}@10)`)
    const depth = depthOf(ranked.length, spec.k)
    let value = 0
    switch (spec.name) {
      case 'ndcg': {
        const idealDcg = dcg(ideal, depthOf(ideal.length, spec.k), settings.gain)
        value = idealDcg > 0 ? unit(dcg(ranked, depth, settings.gain) / idealDcg) : 0
        break
      }
      case 'p':
        value = relevantWithin(depth) / spec.k!
        break
      case 'ap': {
        let found = 0
        let sum = 0
        for (let index = 0; index < depth; index++) if (ranked[index]! >= threshold) sum += ++found / (index + 1)
        value = totalRelevant > 0 ? sum / totalRelevant : 0
        break
      }
      case 'rr': {
        for (let index = 0; index < depth; index++) {
          if (ranked[index]! >= threshold) {
            value = 1 / (index + 1)
            break
          }
        }
        break
      }
      case 'err': {
        // Chapelle et al. 2009: R = (2^g − 1) / 2^gmax; linear gain: R = g / gmax.
        let going = 1
        let sum = 0
        for (let index = 0; index < depth && topGrade > 0; index++) {
          const grade = ranked[index]!
          const r = grade < 0 ? 0 : settings.gain === 'exponential' ? (2 ** grade - 1) / 2 ** topGrade : grade / topGrade
          sum += (going * r) / (index + 1)
          going *= 1 - r
        }
        value = unit(sum)
        break
      }
      case 'recall':
        value = totalRelevant > 0 ? relevantWithin(depth) / totalRelevant : 0
        break
      case 'coverage': {
        // Read before skipping: how much of what came back has a judgment.
        const shown = Math.min(spec.k!, returned.length)
        value = shown === 0 ? 1 : (shown - unjudgedWithin(returned, grades, shown)) / shown
        break
      }
    }
    out[keyOf(spec)] = value
  }
  return out
}
