import { DEFAULT_ALPHA, TIE, type ExperimentOptions, type ExperimentStats } from '../experiments/experiment'
import { holmAdjust } from '../experiments/holm'
import { pairedRandomizationTest } from '../experiments/paired-randomization'
import type { QueryRanking } from './evaluation'
import { gradesOfSet } from './grade-aggregate'
import { deepestK, metricKey, metricLabel, scoreQuery, type MetricSpec } from './metrics'
import { DEFAULT_SCALE, type MetricSettings, type QuerySet } from './query-set'

/**
 * What to judge next (issue 35, point 5), as pure functions. For an
 * evaluation: each query's figure as an interval, the range it takes when
 * the unjudged items of its top judgeDepth are judged at the scale's bottom
 * or top grade (the current figure included), and the means' intervals. For an experiment: how far each
 * metric's mean delta could move, whether its sign or its significance could
 * change, and a queue of the unjudged (query, item) pairs ranked by how far
 * judging them could move the deltas not yet decided. Every figure comes from
 * scoreQuery and the experiment's own test; docs/METRICS.md ("What to judge
 * next") is the definition.
 */

/** What scores the rankings: the metrics, the set's settings and how deep Judge looks. */
export interface JudgeNextScoring {
  metrics: readonly MetricSpec[]
  settings: MetricSettings
  judgeDepth: number
}

/** The set the grades come from (gradesOfSet under settings.aggregate, as rankingScorer reads it). */
export type JudgeNextSet = Pick<QuerySet, 'judgments' | 'scale' | 'raters'>

/** A figure now and where it could go: low ≤ current ≤ high. */
export interface FigureInterval {
  current: number
  low: number
  high: number
}

export interface QueryInterval {
  id: string
  text: string
  /** Unjudged items in the top judgeDepth: what the interval is over. */
  unjudged: number
  /** By metric key; null when the query is left out of the means (it failed, or has no judgment at all). */
  figures: Record<string, FigureInterval> | null
}

export interface EvaluationIntervals {
  /** The metric keys, in the list's order; Coverage is left out (judging takes it to 1 whatever the grades). */
  metrics: string[]
  queries: QueryInterval[]
  /** Mean of the currents, of the lows and of the highs over the counted queries; null when none is counted. */
  means: Record<string, FigureInterval | null>
  counted: number
  /** Unjudged items in every counted query's top judgeDepth, together. */
  unjudged: number
}

/** One pair to judge, and why. */
export interface JudgeNextEntry {
  query: string
  text: string
  item: string
  /** The item's rank (1-based, repeats removed) in each side's ranking, baseline first; null where it is not in it. */
  ranks: (number | null)[]
  /** Σ of |effect| below: what the queue is ordered by. */
  priority: number
  /** The item's estimated effect on each figure it moves, largest first: on the query's figure (evaluation) or delta (experiment, `other` the side). */
  effects: { metric: string; other: number | null; effect: number }[]
  /** "not in A's ranking, rank 2 in B; could move the delta of nDCG@10 by about 0.310 on this query" (an evaluation's: "rank 2; could move nDCG@10 by about …"). */
  why: string
}

export interface EvaluationJudgeNext extends EvaluationIntervals {
  queue: JudgeNextEntry[]
  /** The queue's length before `limit`. */
  total: number
  /** The plain sentence the window and the command line show. */
  summary: string
}

/** One comparison's verdict and how far the unjudged items could move it. */
export interface DeltaVerdict {
  metric: string
  /** Index into the other sides (B is 0). */
  other: number
  /** Paired queries. */
  n: number
  /** Mean delta (other − baseline) now; low: with the unjudged items going the baseline's way; high: the other side's. */
  delta: FigureInterval
  signCanChange: boolean
  /** Holm-adjusted p (over the experiment's family) now and at each extreme, and whether it is below alpha. */
  pAdjusted: { current: number; low: number; high: number }
  significant: { current: boolean; low: boolean; high: boolean }
  significanceCanChange: boolean
  /** Neither the sign nor the significance can change. */
  decided: boolean
}

export interface ExperimentJudgeNext {
  alpha: number
  /** By other side, then in the metric list's order (Coverage left out). */
  verdicts: DeltaVerdict[]
  queue: JudgeNextEntry[]
  total: number
  summary: string
}

export interface JudgeNextOptions {
  /** Keep the first `limit` entries of the queue (all when absent). */
  limit?: number
}

export interface JudgeNextExperimentOptions extends ExperimentOptions, JudgeNextOptions {
  /**
   * The experiment's statistics (experimentStats) for these sides and grades,
   * when at hand: their Holm-adjusted p-values are taken as the current ones
   * instead of running each test again, if they match these deltas (else they
   * are ignored).
   */
  stats?: ExperimentStats
}

const SIDE_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const sideName = (index: number) => SIDE_LETTERS[index] ?? `side ${index + 1}`

/** The metrics an interval is given for: Coverage measures the judging itself, not the ranking. */
function rankingMetrics(metrics: readonly MetricSpec[]): MetricSpec[] {
  return metrics.filter((spec) => spec.name !== 'coverage')
}

/** The ids in order, each at its first place (as scoreQuery reads a ranking). */
function distinct(items: readonly string[]): string[] {
  return [...new Set(items)]
}

/**
 * How much of a metric's swing an item at a rank is estimated to carry: the
 * rank discount the metric reads ranks with (DCG's 1/log2(r + 1) for nDCG,
 * 1/r for AP, RR and ERR, the same for every place for P and Recall), 0
 * beyond the metric's depth or outside the ranking.
 */
function rankWeight(spec: MetricSpec, rank: number | null): number {
  if (rank === null || (spec.k !== null && rank > spec.k)) return 0
  switch (spec.name) {
    case 'ndcg':
      return 1 / Math.log2(rank + 1)
    case 'ap':
    case 'rr':
    case 'err':
      return 1 / rank
    default:
      return 1
  }
}

/** One query as the functions below read it: its grades, and each side's ranking (null when it failed or is not on that side). */
interface QueryCase {
  id: string
  text: string
  order: number
  own: ReadonlyMap<string, number>
  rankings: (string[] | null)[]
  /** Unjudged items in any side's top judgeDepth, by their best rank, then side. */
  unjudged: string[]
  /** ranks[side][i]: the 1-based rank of unjudged[i] in that side's ranking, or null. */
  ranks: (number | null)[][]
}

function queryCase(id: string, text: string, order: number, own: ReadonlyMap<string, number>, rankings: (string[] | null)[], judgeDepth: number): QueryCase {
  const best = new Map<string, { rank: number; side: number }>()
  rankings.forEach((ranking, side) => {
    if (!ranking) return
    for (let index = 0; index < ranking.length && index < judgeDepth; index++) {
      const item = ranking[index]!
      if (own.has(item)) continue
      // Sides are read in order, so at an equal rank the earlier side stays.
      const known = best.get(item)
      if (!known || index + 1 < known.rank) best.set(item, { rank: index + 1, side })
    }
  })
  const unjudged = [...best.entries()].sort((a, b) => a[1].rank - b[1].rank || a[1].side - b[1].side).map(([item]) => item)
  const ranks = rankings.map((ranking) => {
    if (!ranking) return unjudged.map(() => null)
    const places = new Map<string, number>()
    ranking.forEach((item, index) => places.set(item, index + 1))
    return unjudged.map((item) => places.get(item) ?? null)
  })
  return { id, text, order, own, rankings, unjudged, ranks }
}

/**
 * Scores a query's ranking with its unjudged items graded as `assignment`
 * says (1: the top grade, 0: the bottom; null: left unjudged), on one
 * working copy of the query's grades per query.
 */
function scorerFor(query: QueryCase, metrics: readonly MetricSpec[], settings: MetricSettings, scale: NonNullable<JudgeNextSet['scale']>) {
  const bottom = scale[0]!.grade
  const top = scale[scale.length - 1]!.grade
  const working = new Map(query.own)
  return (side: number, assignment: readonly (0 | 1)[] | null): Record<string, number> => {
    query.unjudged.forEach((item, index) => {
      if (assignment === null) working.delete(item)
      else working.set(item, assignment[index] === 1 ? top : bottom)
    })
    return scoreQuery(query.rankings[side]!, working, metrics, settings, scale)
  }
}

/** 1 for the first `count` items (by rank), 0 for the rest; `fromEnd`: the last `count`. */
function run(length: number, count: number, fromEnd: boolean): (0 | 1)[] {
  return Array.from({ length }, (_, index) => ((fromEnd ? index >= length - count : index < count) ? 1 : 0))
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)

/** Each item's share of a swing on one side: its rank weight over the items' total, evenly when none has weight (the swing comes from R or the ideal). */
function shares(spec: MetricSpec, ranks: readonly (number | null)[]): number[] {
  const weights = ranks.map((rank) => rankWeight(spec, rank))
  const total = sum(weights)
  if (total > 0) return weights.map((weight) => weight / total)
  return ranks.map(() => 1 / Math.max(1, ranks.length))
}

/**
 * Each query's figures as intervals, and the means' intervals, for one
 * evaluation. The low is the least figure over the current one and every way
 * of judging the unjudged items of the top judgeDepth at the bottom or the
 * top grade; the high the greatest. For a given number of items at the top,
 * the highest figure has them at the best ranks and the lowest at the worst
 * (moving a top-grade item up never lowers any of these metrics), so the
 * |U| + 1 first-m and last-m assignments are all that is scored.
 */
export function evaluationIntervals(rankings: readonly QueryRanking[], set: JudgeNextSet, scoring: JudgeNextScoring): EvaluationIntervals {
  return evaluationParts(rankings, set, scoring).intervals
}

function evaluationParts(rankings: readonly QueryRanking[], set: JudgeNextSet, scoring: JudgeNextScoring) {
  checkScoring(scoring)
  const metrics = rankingMetrics(scoring.metrics)
  const keys = metrics.map(metricKey)
  const grades = gradesOfSet(set, scoring.settings.aggregate)
  const scale = set.scale ?? DEFAULT_SCALE
  const queries: QueryInterval[] = []
  const cases: { query: QueryCase; figures: Record<string, FigureInterval> }[] = []
  const sums = keys.map(() => ({ current: 0, low: 0, high: 0 }))
  let counted = 0
  let unjudgedTotal = 0
  rankings.forEach((ranking, order) => {
    const own = grades.get(ranking.id) ?? new Map<string, number>()
    const ranked = ranking.error === null ? distinct(ranking.items) : null
    const query = queryCase(ranking.id, ranking.text, order, own, [ranked], scoring.judgeDepth)
    if (ranked === null || own.size === 0) {
      queries.push({ id: ranking.id, text: ranking.text, unjudged: query.unjudged.length, figures: null })
      return
    }
    const score = scorerFor(query, metrics, scoring.settings, scale)
    const current = score(0, null)
    const low = { ...current }
    const high = { ...current }
    const size = query.unjudged.length
    for (let count = 0; count <= size; count++) {
      const best = score(0, run(size, count, false))
      const worst = count === 0 || count === size ? best : score(0, run(size, count, true))
      for (const key of keys) {
        if (best[key]! > high[key]!) high[key] = best[key]!
        if (worst[key]! < low[key]!) low[key] = worst[key]!
      }
    }
    const figures: Record<string, FigureInterval> = {}
    keys.forEach((key, index) => {
      figures[key] = { current: current[key]!, low: low[key]!, high: high[key]! }
      sums[index]!.current += current[key]!
      sums[index]!.low += low[key]!
      sums[index]!.high += high[key]!
    })
    counted++
    unjudgedTotal += size
    queries.push({ id: ranking.id, text: ranking.text, unjudged: size, figures })
    cases.push({ query, figures })
  })
  const means: Record<string, FigureInterval | null> = {}
  keys.forEach((key, index) => {
    const total = sums[index]!
    means[key] = counted === 0 ? null : { current: total.current / counted, low: total.low / counted, high: total.high / counted }
  })
  return { intervals: { metrics: keys, queries, means, counted, unjudged: unjudgedTotal }, cases, metrics }
}

/**
 * The evaluation's intervals and its queue: every unjudged item of a counted
 * query's top judgeDepth, by how much of its query's intervals it is
 * estimated to carry (Σ over the metrics of the interval's width × the
 * item's share of it by rank weight), ties by query order, then rank.
 */
export function judgeNextEvaluation(rankings: readonly QueryRanking[], set: JudgeNextSet, scoring: JudgeNextScoring, options: JudgeNextOptions = {}): EvaluationJudgeNext {
  const { intervals, cases, metrics } = evaluationParts(rankings, set, scoring)
  const entries: Ranked[] = []
  for (const { query, figures } of cases) {
    const perMetric = metrics.map((spec) => {
      const figure = figures[metricKey(spec)]!
      return shares(spec, query.ranks[0]!).map((share) => share * (figure.high - figure.low))
    })
    query.unjudged.forEach((item, index) => {
      const effects = metrics
        .map((spec, m) => ({ metric: metricKey(spec), other: null, effect: perMetric[m]![index]! }))
        .filter((effect) => effect.effect > TIE)
        .sort((a, b) => b.effect - a.effect)
      if (effects.length === 0) return
      const ranks = [query.ranks[0]![index]!]
      entries.push({
        order: query.order,
        bestRank: ranks[0] ?? Number.POSITIVE_INFINITY,
        entry: { query: query.id, text: query.text, item, ranks, priority: sum(effects.map((effect) => effect.effect)), effects, why: whyText(ranks, effects, metrics, 'figure', false) },
      })
    })
  }
  const queue = ordered(entries)
  return { ...intervals, queue: limited(queue, options), total: queue.length, summary: evaluationSummary(intervals, metrics, queue.length, scoring.judgeDepth) }
}

/** An experiment's sides as judge-next reads them: each side's rankings, the baseline first. */
export interface JudgeNextSides {
  baseline: readonly QueryRanking[]
  others: readonly (readonly QueryRanking[])[]
}

/**
 * How far each comparison of an experiment could move with the unjudged
 * items of either side's top judgeDepth, and the queue of those items.
 * Per query, the extreme deltas are the least and greatest delta among: the
 * current one, every unjudged item at the bottom, every one at the top, and
 * for each direction the items put at the top where their estimated effect
 * (their rank-weighted share of each side's swing) pushes the delta that way.
 * An item graded in an extreme has that grade on every side. The experiment's
 * own paired randomization test (same alpha, seed, permutations) and Holm's
 * adjustment over its family are run at the two extremes.
 */
export function judgeNextExperiment(sides: JudgeNextSides, set: JudgeNextSet, scoring: JudgeNextScoring, options: JudgeNextExperimentOptions = {}): ExperimentJudgeNext {
  checkScoring(scoring)
  const alpha = options.alpha ?? DEFAULT_ALPHA
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha is a number between 0 and 1, not ${alpha}`)
  if (sides.others.length === 0) throw new RangeError('others: an experiment compares the baseline with at least one other side')
  // Every metric is scored and tested, Coverage too, so that Holm's family is the experiment's own; Coverage gets no verdict.
  const metrics = [...scoring.metrics]
  const keys = metrics.map(metricKey)
  const judged = metrics.map((spec) => spec.name !== 'coverage')
  const coverageSpecs = metrics.filter((spec) => spec.name === 'coverage')
  const grades = gradesOfSet(set, scoring.settings.aggregate)
  const scale = set.scale ?? DEFAULT_SCALE
  const all = [sides.baseline, ...sides.others]
  const others = sides.others.length
  const width = metrics.length
  // Under unjudged "zero", a bottom grade of 0 below the threshold reads exactly as no grade: the current figures are the all-bottom ones.
  const bottomIsUnjudged = scoring.settings.unjudged === 'zero' && scale[0]!.grade === 0 && scoring.settings.threshold > 0

  // The experiment's rows: the baseline's queries first, then the others' own.
  const byId = all.map((list) => new Map(list.map((ranking) => [ranking.id, ranking])))
  const ids: string[] = []
  const seen = new Set<string>()
  for (const list of all) for (const { id } of list) if (!seen.has(id)) seen.add(id), ids.push(id)

  /** Per comparison (other o, metric m, at o · width + m): each paired query's current, low and high delta. */
  const rows = Array.from({ length: others * width }, () => ({ current: [] as number[], low: [] as number[], high: [] as number[] }))
  /** Per query with unjudged items: the case and each comparison's per-item effects (null where the query is not paired in it). */
  const effectsByQuery: { query: QueryCase; effects: (number[] | null)[] }[] = []

  ids.forEach((id, order) => {
    const found = byId.map((map) => map.get(id))
    const own = grades.get(id) ?? new Map<string, number>()
    const text = found.find((ranking) => ranking)?.text ?? ''
    const rankings = found.map((ranking) => (ranking && ranking.error === null ? distinct(ranking.items) : null))
    // No judgment at all: no figures on any side, so nothing is paired (as experimentStats pairs).
    if (own.size === 0 || rankings[0] === null) return
    const query = queryCase(id, text, order, own, rankings, scoring.judgeDepth)
    const score = scorerFor(query, metrics, scoring.settings, scale)
    const size = query.unjudged.length
    const allBottom = run(size, 0, false)
    const allTop = run(size, size, false)
    const cache = new Map<string, Record<string, number>>()
    const scored = (side: number, assignment: (0 | 1)[] | null): Record<string, number> => {
      const key = `${side}:${assignment === null ? 'now' : assignment.join('')}`
      let figures = cache.get(key)
      if (figures) return figures
      if (assignment === null && bottomIsUnjudged) {
        // Only Coverage tells "unjudged" from "bottom grade"; it reads the top k alone, so the short list is scored for it.
        const coverage = coverageSpecs.length === 0 ? {} : scoreQuery(rankings[side]!.slice(0, deepestK(coverageSpecs)!), own, coverageSpecs, scoring.settings, scale)
        figures = { ...scored(side, allBottom), ...coverage }
      } else figures = score(side, assignment)
      cache.set(key, figures)
      return figures
    }
    const effects: (number[] | null)[] = []
    for (let o = 0; o < others; o++) {
      const side = o + 1
      for (let m = 0; m < width; m++) {
        if (rankings[side] === null) {
          effects.push(null)
          continue
        }
        const key = keys[m]!
        const delta = (assignment: (0 | 1)[] | null) => scored(side, assignment)[key]! - scored(0, assignment)[key]!
        const candidates = [delta(null), delta(allBottom), delta(allTop)]
        let effect: number[] | null = null
        if (size > 0 && judged[m]) {
          const swing = (s: number) => scored(s, allTop)[key]! - scored(s, allBottom)[key]!
          const otherShare = shares(metrics[m]!, query.ranks[side]!)
          const baseShare = shares(metrics[m]!, query.ranks[0]!)
          const otherSwing = swing(side)
          const baseSwing = swing(0)
          effect = query.unjudged.map((_, i) => otherShare[i]! * otherSwing - baseShare[i]! * baseSwing)
          candidates.push(delta(effect.map((e) => (e > TIE ? 1 : 0))), delta(effect.map((e) => (e < -TIE ? 1 : 0))))
        }
        effects.push(effect)
        const row = rows[o * width + m]!
        row.current.push(tie(candidates[0]!))
        row.low.push(tie(Math.min(...candidates)))
        row.high.push(tie(Math.max(...candidates)))
      }
    }
    if (size > 0) effectsByQuery.push({ query, effects })
  })

  const testOptions = { permutations: options.permutations, seed: options.seed, exactUpTo: options.exactUpTo }
  const meanOf = (values: readonly number[]) => sum(values) / values.length
  const rawP = (deltas: readonly number[]) => pairedRandomizationTest(deltas, testOptions).p
  /** Holm over the comparisons with a paired query, as experimentStats adjusts; `known` gives a raw p without running the test again. */
  const holm = (pick: (index: number) => number) => {
    const tested = rows.map((row, index) => (row.current.length === 0 ? null : pick(index)))
    const adjusted = holmAdjust(tested.filter((p): p is number => p !== null))
    let at = 0
    return tested.map((p) => (p === null ? null : adjusted[at++]!))
  }
  const given = currentFromStats(options.stats, rows, keys, width, meanOf)
  const currentRaw = given ? null : rows.map((row) => (row.current.length === 0 ? 1 : rawP(row.current)))
  const current = given ?? holm((index) => currentRaw![index]!)
  // An extreme that moves no query's delta has the current p: the test is not run again.
  const extremeRaw = (which: 'low' | 'high') =>
    rows.map((row, index) => (row.current.length === 0 ? 1 : sameDeltas(row[which], row.current) && currentRaw ? currentRaw[index]! : rawP(row[which])))
  const lowRaw = extremeRaw('low')
  const highRaw = extremeRaw('high')
  const low = holm((index) => lowRaw[index]!)
  const high = holm((index) => highRaw[index]!)

  const verdicts: DeltaVerdict[] = []
  rows.forEach((row, index) => {
    const m = index % width
    if (row.current.length === 0 || !judged[m]) return
    const delta = { current: meanOf(row.current), low: meanOf(row.low), high: meanOf(row.high) }
    const pAdjusted = { current: current[index]!, low: low[index]!, high: high[index]! }
    const significant = { current: pAdjusted.current < alpha, low: pAdjusted.low < alpha, high: pAdjusted.high < alpha }
    const signCanChange = signOf(delta.low) !== signOf(delta.high)
    const significanceCanChange = significant.low !== significant.high || significant.low !== significant.current
    verdicts.push({ metric: keys[m]!, other: Math.floor(index / width), n: row.current.length, delta, signCanChange, pAdjusted, significant, significanceCanChange, decided: !signCanChange && !significanceCanChange })
  })

  const undecided = new Set(verdicts.filter((verdict) => !verdict.decided).map((verdict) => verdict.other * width + keys.indexOf(verdict.metric)))
  const entries: Ranked[] = []
  for (const { query, effects } of effectsByQuery) {
    query.unjudged.forEach((item, i) => {
      const list: JudgeNextEntry['effects'] = []
      effects.forEach((effect, index) => {
        if (effect === null || !undecided.has(index)) return
        const size = Math.abs(effect[i]!)
        if (size > TIE) list.push({ metric: keys[index % width]!, other: Math.floor(index / width), effect: size })
      })
      if (list.length === 0) return
      list.sort((a, b) => b.effect - a.effect)
      const ranks = query.ranks.map((sideRanks) => sideRanks[i]!)
      entries.push({
        order: query.order,
        bestRank: Math.min(...ranks.map((rank) => rank ?? Number.POSITIVE_INFINITY)),
        entry: { query: query.id, text: query.text, item, ranks, priority: sum(list.map((effect) => effect.effect)), effects: list, why: whyText(ranks, list, metrics, 'delta', others > 1) },
      })
    })
  }
  const queue = ordered(entries)
  return { alpha, verdicts, queue: limited(queue, options), total: queue.length, summary: experimentSummary(verdicts, metrics, queue.length, others > 1) }
}

function sameDeltas(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index])
}

/**
 * The current Holm-adjusted p of every comparison, from the experiment's own
 * statistics when they were computed from these deltas (same comparisons,
 * same family, the same paired count and mean delta in every one), which
 * saves running each test once more; null otherwise.
 */
function currentFromStats(
  stats: ExperimentStats | undefined,
  rows: readonly { current: readonly number[] }[],
  keys: readonly string[],
  width: number,
  meanOf: (values: readonly number[]) => number,
): (number | null)[] | null {
  if (!stats) return null
  const tested = rows.filter((row) => row.current.length > 0).length
  if (stats.family !== tested) return null
  const out: (number | null)[] = []
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!
    if (row.current.length === 0) {
      out.push(null)
      continue
    }
    const found = stats.comparisons.find((c) => c.other === Math.floor(index / width) && c.metric === keys[index % width])
    if (!found || found.pAdjusted === null || found.meanDelta === null || found.n !== row.current.length) return null
    if (Math.abs(found.meanDelta - meanOf(row.current)) > 1e-9) return null
    out.push(found.pAdjusted)
  }
  return out
}

function checkScoring(scoring: JudgeNextScoring): void {
  if (!Number.isInteger(scoring.judgeDepth) || scoring.judgeDepth < 1) throw new RangeError(`judgeDepth is a whole number of at least 1, not ${scoring.judgeDepth}`)
}

/** A delta within the tie tolerance is 0, as experimentStats counts it. */
function tie(delta: number): number {
  return Math.abs(delta) < TIE ? 0 : delta
}

function signOf(value: number): -1 | 0 | 1 {
  return value > TIE ? 1 : value < -TIE ? -1 : 0
}

interface Ranked {
  order: number
  bestRank: number
  entry: JudgeNextEntry
}

/** Largest priority first; ties by query order, then the item's best rank, then its id. */
function ordered(entries: Ranked[]): JudgeNextEntry[] {
  return entries
    .sort((a, b) => b.entry.priority - a.entry.priority || a.order - b.order || a.bestRank - b.bestRank || (a.entry.item < b.entry.item ? -1 : a.entry.item > b.entry.item ? 1 : 0))
    .map((ranked) => ranked.entry)
}

function limited(queue: JudgeNextEntry[], options: JudgeNextOptions): JudgeNextEntry[] {
  if (options.limit === undefined) return queue
  if (!Number.isInteger(options.limit) || options.limit < 0) throw new RangeError(`limit is a whole number of at least 0, not ${options.limit}`)
  return queue.slice(0, options.limit)
}

const fixed = (value: number) => value.toFixed(3)
const signed = (value: number) => (Math.abs(value) < 0.0005 ? '0.000' : `${value < 0 ? '−' : '+'}${Math.abs(value).toFixed(3)}`)

function labelOf(metrics: readonly MetricSpec[], key: string): string {
  const spec = metrics.find((metric) => metricKey(metric) === key)
  return spec ? metricLabel(spec) : key
}

/** "rank 2 in B, not in A's ranking; could move nDCG@10's delta by about 0.310 on this query". */
function whyText(ranks: readonly (number | null)[], effects: JudgeNextEntry['effects'], metrics: readonly MetricSpec[], what: 'figure' | 'delta', many: boolean): string {
  const places =
    ranks.length === 1
      ? `rank ${ranks[0]}`
      : ranks.map((rank, side) => (rank === null ? `not in ${sideName(side)}'s ranking` : `rank ${rank} in ${sideName(side)}`)).join(', ')
  const moves = effects
    .slice(0, 2)
    .map((effect) => `${labelOf(metrics, effect.metric)}${what === 'delta' && many ? ` (${sideName(effect.other! + 1)} − A)` : ''} by about ${fixed(effect.effect)}`)
  const more = effects.length > 2 ? ` and ${effects.length - 2} more` : ''
  return `${places}; could move ${what === 'delta' ? 'the delta of ' : ''}${moves.join(', ')}${more} on this query`
}

function evaluationSummary(intervals: EvaluationIntervals, metrics: readonly MetricSpec[], pairs: number, judgeDepth: number): string {
  if (intervals.counted === 0) return 'No query has a judgment yet: nothing is counted, so there is no interval to narrow.'
  const ranges = intervals.metrics.map((key) => {
    const mean = intervals.means[key]!
    return `${labelOf(metrics, key)} ${fixed(mean.current)} (between ${fixed(mean.low)} and ${fixed(mean.high)})`
  })
  if (pairs === 0) return `Nothing left to judge in the top ${judgeDepth} moves a figure: ${ranges.join(', ')}.`
  return `${pairs} unjudged ${pairs === 1 ? 'pair' : 'pairs'} could move the means: ${ranges.join(', ')}.`
}

function experimentSummary(verdicts: readonly DeltaVerdict[], metrics: readonly MetricSpec[], pairs: number, many: boolean): string {
  if (verdicts.length === 0) return 'No query is judged on both sides yet: there is no delta to decide.'
  const name = (verdict: DeltaVerdict) => `${labelOf(metrics, verdict.metric)}${many ? ` (${sideName(verdict.other + 1)} − A)` : ''}`
  const range = (verdict: DeltaVerdict) => `between ${signed(verdict.delta.low)} and ${signed(verdict.delta.high)}`
  const undecided = verdicts.filter((verdict) => !verdict.decided)
  if (undecided.length === 0) {
    const stays = verdicts.map(
      (verdict) => `${name(verdict)}'s delta stays ${range(verdict)}, ${verdict.significant.current ? 'significant' : 'not significant'} either way`,
    )
    return `Nothing left to judge changes a verdict: ${stays.join('; ')}.`
  }
  const open = undecided.map((verdict) => {
    const reasons: string[] = []
    if (verdict.signCanChange) reasons.push(`its delta ${signed(verdict.delta.current)} could go ${range(verdict)}`)
    else reasons.push(`its delta ${signed(verdict.delta.current)} stays ${range(verdict)}`)
    if (verdict.significanceCanChange) {
      const ways = [verdict.significant.low !== verdict.significant.current ? "the baseline's way" : null, verdict.significant.high !== verdict.significant.current ? "the other side's way" : null]
      const way = ways.filter((text) => text !== null).join(' or ')
      reasons.push(verdict.significant.current ? `significant now, not if the unjudged go ${way}` : `not significant now, significant if the unjudged go ${way}`)
    } else reasons.push(verdict.significant.current ? 'significant either way' : 'not significant either way')
    return `${name(verdict)}: ${reasons.join(', ')}`
  })
  return `${pairs} unjudged ${pairs === 1 ? 'pair' : 'pairs'} could change a verdict. ${open.join('; ')}.`
}
