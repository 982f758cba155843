import type { VerdictHold } from '../ipc/judge-contract'
import { scoreRankings, type QueryRanking } from '../relevance/evaluation'
import { gradesOfSet, type Aggregate } from '../relevance/grade-aggregate'
import { peopleRule } from '../relevance/judge-calibration'
import type { JudgeNextScoring } from '../relevance/judge-next'
import { metricKey } from '../relevance/metrics'
import type { QuerySet } from '../relevance/query-set'
import { ratersOf, referenceRaters } from '../relevance/raters'
import { experimentStats, TIE, type ExperimentOptions } from './experiment'

/**
 * Does an experiment's verdict hold (issue 36, point 5)? Its comparison
 * table worked out again from its sides' kept rankings three times: with
 * people's grades only, with the LLM judge's only, and with both (every
 * rater, the set's rule: the table as the experiment shows it now); then,
 * per side and metric, whether the delta's sign or its significance differs
 * between the three. Each table is the experiment's own (experimentStats:
 * the same pairing, tie rule, paired randomization test, seed and Holm's
 * adjustment over its whole family); docs/METRICS.md ("LLM judge
 * calibration") is the definition.
 */

export const GRADE_SOURCES = ['people', 'judge', 'both'] as const
export type GradeSource = (typeof GRADE_SOURCES)[number]

export interface VerdictHoldInput {
  /** The judge's rater name (`llm:NAME`). */
  judge: string
  /** The set as it is now. */
  set: Pick<QuerySet, 'judgments' | 'scale' | 'raters'>
  /** Each side's kept rankings, the baseline first. */
  sides: readonly (readonly QueryRanking[])[]
  /** The experiment's metrics, the set's settings now (its rule among them) and the experiment's judgeDepth. */
  scoring: JudgeNextScoring
  /** The experiment's alpha (and, in tests, fewer permutations). */
  options?: ExperimentOptions
}

type Judgments = QuerySet['judgments']

/** The judgments each table reads and the rule it reads them by. */
export function gradeSources(set: Pick<QuerySet, 'judgments' | 'raters'>, judge: string, aggregate: Aggregate | undefined): Record<GradeSource, { judgments: Judgments; aggregate: Aggregate | undefined }> {
  const kinds = new Map(ratersOf(set).map((rater) => [rater.name, rater.kind]))
  const kindOf = (rater: string) => kinds.get(rater)
  // The people, or where no person graded the set, its other raters (raters.ts).
  const reference = referenceRaters(set)
  const people: Judgments = []
  const own: Judgments = []
  for (const judgment of set.judgments) {
    const kind = kindOf(judgment.rater)
    // People's table: the people and what was settled (which wins under every rule, as in the metrics).
    if (judgment.rater !== judge && (reference.has(judgment.rater) || kind === 'adjudication')) people.push(judgment)
    if (judgment.rater === judge) own.push(judgment)
  }
  return {
    people: { judgments: people, aggregate: peopleRule(aggregate, reference.has) },
    // One rater: every rule gives the judge's own grade (a rule naming another rater would give none).
    judge: { judgments: own, aggregate: 'mean' },
    both: { judgments: set.judgments, aggregate },
  }
}

const SIDE_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const sideName = (index: number) => SIDE_LETTERS[index] ?? `side ${index + 1}`

function signOf(delta: number | null): -1 | 0 | 1 | null {
  return delta === null ? null : delta > TIE ? 1 : delta < -TIE ? -1 : 0
}

export function verdictHold(input: VerdictHoldInput): VerdictHold {
  const { judge, set, sides, scoring } = input
  if (sides.length < 2) throw new RangeError('sides: an experiment compares the baseline with at least one other side')
  const raters = ratersOf(set)
  const sources = gradeSources(set, judge, scoring.settings.aggregate)
  // Coverage measures the judging, not the rankings: it stays in Holm's family (as the experiment's) but gets no verdict.
  const coverage = new Set(scoring.metrics.filter((spec) => spec.name === 'coverage').map(metricKey))
  const tables = GRADE_SOURCES.map((source) => {
    const { judgments, aggregate } = sources[source]
    const graded = { judgments, scale: set.scale, raters }
    const settings = { ...scoring.settings, aggregate }
    const [baseline, ...others] = sides.map((rankings, index) => ({
      label: sideName(index),
      rankings,
      scored: scoreRankings(rankings, graded, scoring.metrics, settings, scoring.judgeDepth),
    }))
    // The bootstrap interval is no part of a verdict: one resample keeps its cost out.
    const stats = experimentStats(baseline!, others, gradesOfSet(graded, aggregate), scoring.judgeDepth, { ...input.options, resamples: 1 })
    return { source, stats }
  })

  const rows: VerdictHold['rows'] = []
  const verdicts: VerdictHold['verdicts'] = []
  // The comparisons are the same in every table (sides and metrics, not grades, make them), in the experiment's order.
  tables[0]!.stats.comparisons.forEach((comparison, index) => {
    if (coverage.has(comparison.metric)) return
    const side = sideName(comparison.other + 1)
    const each = tables.map(({ source, stats }) => {
      const found = stats.comparisons[index]!
      return { side, metric: comparison.metric, grades: source, n: found.n, delta: found.meanDelta, p: found.p, pAdjusted: found.pAdjusted, significant: found.significant }
    })
    rows.push(...each)
    const signs = each.map((row) => signOf(row.delta))
    const signChanges = signs.some((sign) => sign !== signs[0])
    const significanceChanges = each.some((row) => row.significant !== each[0]!.significant)
    verdicts.push({ side, metric: comparison.metric, signChanges, significanceChanges, holds: !signChanges && !significanceChanges })
  })
  const reference = referenceRaters(set)
  return { judge, reference: { people: reference.people, raters: reference.names }, coverage: judgeCoverage(judge, set.judgments, sides, scoring.judgeDepth), rows, verdicts }
}

/**
 * How much of each side's top `depth` the judge graded: a side it graded
 * less of reads worse in the judge's table only because its items count as
 * unjudged there (the window says so beside the table).
 */
export function judgeCoverage(judge: string, judgments: Judgments, sides: readonly (readonly QueryRanking[])[], depth: number): { side: string; graded: number; items: number }[] {
  const graded = new Set<string>()
  for (const judgment of judgments) if (judgment.rater === judge) graded.add(`${judgment.query}\u0000${judgment.item}`)
  return sides.map((rankings, index) => {
    let items = 0
    let judged = 0
    for (const ranking of rankings) {
      if (ranking.error !== null) continue
      for (const item of ranking.items.slice(0, depth)) {
        items++
        if (graded.has(`${ranking.id}\u0000${item}`)) judged++
      }
    }
    return { side: sideName(index), graded: judged, items }
  })
}
