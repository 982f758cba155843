import type { ExperimentStats } from '../../shared/experiments/experiment-record'
import type { Evaluation } from '../../shared/relevance/evaluation'
import { judgeNextEvaluation, judgeNextExperiment, type DeltaVerdict, type EvaluationJudgeNext, type ExperimentJudgeNext, type JudgeNextEntry } from '../../shared/relevance/judge-next'
import type { MetricSpec } from '../../shared/relevance/metrics'
import type { QuerySet } from '../../shared/relevance/query-set'
import { columns, labelsOf, letterOf } from './eval-experiment-output'
import { signed } from './eval-gates'
import { clip, figure, TEXT_WIDTH } from './eval-output'

/**
 * `eval --judge-next N`: the next N unjudged (query, item) pairs to judge,
 * with why, and how far each figure could still go, from judge-next.ts (the
 * window's own definition, docs/METRICS.md "What to judge next") over the
 * very rankings and grades the figures were scored on. For one target the
 * means' intervals; for an experiment each delta's interval and whether its
 * sign or significance could still change.
 */

/** One target's: its rankings, scored under its own settings and judge depth. */
export function evaluationJudgeNext(evaluation: Evaluation, set: QuerySet, metrics: readonly MetricSpec[], limit: number): EvaluationJudgeNext {
  return judgeNextEvaluation(evaluation.rankings, set, { metrics, settings: evaluation.settings, judgeDepth: evaluation.judgeDepth }, { limit })
}

/** An experiment's (A the baseline): its own statistics and alpha, so the current p-values are the table's. */
export function experimentJudgeNext(sides: readonly [Evaluation, Evaluation], set: QuerySet, metrics: readonly MetricSpec[], stats: ExperimentStats, limit: number): ExperimentJudgeNext {
  const [a, b] = sides
  return judgeNextExperiment({ baseline: a.rankings, others: [b.rankings] }, set, { metrics, settings: a.settings, judgeDepth: a.judgeDepth }, { alpha: stats.alpha, stats, limit })
}

const rankText = (rank: number | null) => (rank === null ? '–' : String(rank))

/** The heading and a row per pair: id, query, item, its rank on each side (`rankHeaders`, one a side), and why. */
function queueLines(result: { queue: readonly JudgeNextEntry[]; total: number }, rankHeaders: readonly string[]): string[] {
  const heading = `Judge next (${result.queue.length} of ${result.total} unjudged pair${result.total === 1 ? '' : 's'} that could change a figure)`
  if (result.queue.length === 0) return [heading]
  const rows = [['id', 'query', 'item', ...rankHeaders], ...result.queue.map((entry) => [entry.query, clip(entry.text, TEXT_WIDTH), entry.item, ...entry.ranks.map(rankText)])]
  const whys = ['why', ...result.queue.map((entry) => entry.why)]
  // Text left, ranks right; why after them, unpadded.
  return [heading, ...columns(rows, 3).map((line, index) => `${line}  ${whys[index]}`)]
}

const labelOf = (metrics: readonly MetricSpec[], key: string) => labelsOf(metrics).get(key) ?? key

/** After one target's figures: the queue, the summary, and each mean now and where judging could take it. */
export function evaluationJudgeNextLines(result: EvaluationJudgeNext, metrics: readonly MetricSpec[], judgeDepth: number): string[] {
  const means = result.metrics.flatMap((key) => {
    const mean = result.means[key]
    if (!mean) return []
    return [`${labelOf(metrics, key)} ${figure(mean.current)}, between ${figure(mean.low)} and ${figure(mean.high)} once the unjudged top ${judgeDepth} are judged`]
  })
  return [...queueLines(result, ['rank']), result.summary, ...means]
}

/** A verdict in words: decided, or what could still change. */
function verdictText(verdict: DeltaVerdict): string {
  if (verdict.decided) return `decided (${verdict.significant.current ? 'significant' : 'not significant'} either way)`
  return [verdict.signCanChange && 'could change sign', verdict.significanceCanChange && 'could change significance'].filter(Boolean).join(', ')
}

/** After an experiment's figures: the queue, the summary, and each metric's delta interval and verdict. */
export function experimentJudgeNextLines(result: ExperimentJudgeNext, metrics: readonly MetricSpec[], judgeDepth: number): string[] {
  const verdicts = result.verdicts.map(
    (verdict) =>
      `${labelOf(metrics, verdict.metric)} Δ ${letterOf(verdict.other)} − A ${signed(verdict.delta.current)}, between ${signed(verdict.delta.low)} and ${signed(verdict.delta.high)} once the unjudged top ${judgeDepth} are judged: ${verdictText(verdict)}`,
  )
  return [...queueLines(result, ['rank A', 'rank B']), result.summary, ...verdicts]
}

const queueJson = (queue: readonly JudgeNextEntry[]) => queue.map(({ query, text, item, ranks, why, priority }) => ({ query, text, item, ranks, why, priority }))

/** `judgeNext` of one target's JSON: the queue (ranks: [rank]), how many pairs in all, the summary and the means' intervals. */
export function evaluationJudgeNextJson(result: EvaluationJudgeNext): unknown {
  return { queue: queueJson(result.queue), total: result.total, summary: result.summary, means: result.means }
}

/** `judgeNext` of an experiment's JSON: the queue (ranks: [A, B]), how many pairs in all, the summary and each delta's verdict. */
export function experimentJudgeNextJson(result: ExperimentJudgeNext, metrics: readonly MetricSpec[]): unknown {
  return {
    queue: queueJson(result.queue),
    total: result.total,
    summary: result.summary,
    verdicts: result.verdicts.map(({ other: _other, ...verdict }) => ({ ...verdict, label: labelOf(metrics, verdict.metric) })),
  }
}
