import { attributionRows } from '../../shared/experiments/attribution'
import type { ExperimentStats, MetricComparison } from '../../shared/experiments/experiment-record'
import type { Evaluation } from '../../shared/relevance/evaluation'
import { metricKey, metricLabel, type MetricSpec } from '../../shared/relevance/metrics'
import { clip, figure } from './eval-output'
import { pText, signed, type GateResult } from './eval-gates'

/**
 * What `eval --a … --b …` prints and writes: per metric both means, the
 * mean delta and its interval, win/tie/loss, p and its Holm adjustment; the
 * queries that failed, by side; each gate; the per-step attribution. And the
 * same as JSON. docs/METRICS.md ("Experiments") defines every figure.
 */

export interface ExperimentReport {
  fileName: string
  set: string
  metrics: readonly MetricSpec[]
  /** A (the baseline), then B. */
  sides: readonly [Evaluation, Evaluation]
  /** Each prefix of the template on A's target; null when --attribution was not given. */
  attribution: { label: string; steps: number; evaluation: Evaluation }[] | null
  stats: ExperimentStats
  gates: GateResult[]
  settingsLine: string
  depth: number
  /** Pages answered from those already fetched within the run. */
  reused: number
}

export const LETTERS = ['A', 'B'] as const
/** The letter of an other side (0: B). */
export const letterOf = (side: number) => LETTERS[side + 1] ?? `side ${side + 1}`

export function labelsOf(metrics: readonly MetricSpec[]): Map<string, string> {
  return new Map(metrics.map((spec) => [metricKey(spec), metricLabel(spec)]))
}

/** Rows of cells as aligned columns: the first `left` columns left-aligned, the rest right-aligned. */
export function columns(rows: readonly string[][], left = 1): string[] {
  const count = Math.max(...rows.map((row) => row.length))
  const widths = Array.from({ length: count }, (_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length)))
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const pad = ' '.repeat(widths[column]! - [...cell].length)
        return column < left ? cell + pad : pad + cell
      })
      .join('  ')
      .trimEnd(),
  )
}

const intervalText = (interval: MetricComparison['interval']) => (interval === null ? '–' : `[${signed(interval[0])}, ${signed(interval[1])}]`)

/** The comparisons as a table: a row per metric. */
export function comparisonLines(report: ExperimentReport): string[] {
  const { stats } = report
  const labels = labelsOf(report.metrics)
  const level = `${Math.round((1 - stats.alpha) * 1000) / 10}%`
  const header = ['metric', 'n', 'A', 'B', 'Δ B − A', `${level} interval`, 'W / T / L', 'p', `p Holm (${stats.family})`, '']
  const rows = stats.comparisons.map((c) => [
    labels.get(c.metric) ?? c.metric,
    String(c.n),
    figure(c.baselineMean),
    figure(c.otherMean),
    signed(c.meanDelta),
    intervalText(c.interval),
    `${c.wins} / ${c.ties} / ${c.losses}`,
    pText(c.p),
    pText(c.pAdjusted),
    c.p === null ? 'no paired query' : c.significant ? 'significant' : 'not significant',
  ])
  const methods = new Set(stats.comparisons.map((c) => c.method).filter(Boolean))
  const how = methods.size === 0 ? '' : methods.has('sampled') ? (methods.has('exact') ? ', exact or sampled' : ', 10,000 sampled sign flips') : ', exact'
  return [
    ...columns([header, ...rows], 1),
    '',
    `A and B: means over the n queries with a figure on both sides; Δ: B − A; W / T / L: queries where B is better, equal, worse.`,
    `p: paired randomization test, two-sided${how}; p Holm: adjusted over the ${stats.family} comparison${stats.family === 1 ? '' : 's'} (Holm); significant when p Holm < alpha ${stats.alpha}.`,
    `Interval: ${level} percentile bootstrap of the mean delta (not adjusted).`,
  ]
}

/** The queries that failed to run, by side. */
export function failedLines(report: ExperimentReport): string[] {
  const lines: string[] = []
  report.sides.forEach((evaluation, index) => {
    const failed = report.stats.failed.filter((each) => each.side === index - 1)
    if (failed.length === 0) return
    lines.push(`Failed to run on ${LETTERS[index]} (${evaluation.targetText}): ${failed.length} quer${failed.length === 1 ? 'y' : 'ies'}, left out of the comparison`)
    for (const each of failed) lines.push(`  ✗ ${each.id} ${clip(each.text, 60)}: ${clip(each.error, 200)}`)
  })
  return lines
}

export const gateLine = (gate: GateResult) => `gate ${gate.text}  ${gate.failed ? 'FAILED' : 'passed'} (${gate.reason})`

/** Each prefix's means and, from the second on, the change from the prefix before. */
export function attributionTable(report: ExperimentReport): { label: string; steps: number; means: Record<string, number | null>; change: Record<string, number | null>; failed: number }[] {
  const keys = report.metrics.map(metricKey)
  const prefixes = report.attribution ?? []
  const rows = attributionRows(
    prefixes.map((prefix) => ({ label: prefix.label, means: prefix.evaluation.scored.means })),
    keys,
  )
  return rows.map((row, index) => ({ ...row, steps: prefixes[index]!.steps, failed: prefixes[index]!.evaluation.scored.failed }))
}

function attributionLines(report: ExperimentReport): string[] {
  const table = attributionTable(report)
  const header = ['step', ...report.metrics.map(metricLabel), 'failed']
  const rows = table.map((row, index) => [
    row.label,
    ...report.metrics.map(metricKey).map((key) => (index === 0 ? figure(row.means[key]) : `${figure(row.means[key])} (${signed(row.change[key] ?? null)})`)),
    String(row.failed),
  ])
  return [
    `Per-step attribution on A (${report.sides[0].targetText}): each prefix of the template, its means, and (in brackets) the change from the prefix before`,
    ...columns([header, ...rows], 1),
  ]
}

/** Everything the text output says after the runs. */
export function experimentLines(report: ExperimentReport): string[] {
  const lines = ['']
  report.sides.forEach((evaluation, index) => {
    const { scored } = evaluation
    lines.push(`${LETTERS[index]}  ${evaluation.targetText}: ${scored.queries.length - scored.failed} ran, ${scored.failed} failed, ${scored.counted} with judgments (${(evaluation.durationMs / 1000).toFixed(1)} s)`)
  })
  if (report.reused > 0) lines.push(`${report.reused} page${report.reused === 1 ? ' was' : 's were'} answered from those already fetched in this run (the same request on the same target)`)
  lines.push('', ...comparisonLines(report), '', report.settingsLine)
  const failed = failedLines(report)
  if (failed.length > 0) lines.push('', ...failed)
  if (report.attribution !== null) lines.push('', ...attributionLines(report))
  if (report.gates.length > 0) lines.push('', ...report.gates.map(gateLine))
  return lines
}

/** The experiment as `--json` prints it. */
export function experimentJson(report: ExperimentReport): Record<string, unknown> {
  const { stats } = report
  const labels = labelsOf(report.metrics)
  const deltas: Record<string, unknown[]> = {}
  for (const metric of stats.metrics) {
    deltas[metric] = (stats.deltas[`0:${metric}`] ?? []).map((row) => ({
      id: row.id,
      text: row.text,
      a: row.baseline,
      b: row.other,
      delta: row.delta,
      unjudged: row.unjudged,
      failed: row.failed === null ? null : row.failed === 'baseline' ? 'A' : row.failed === 'other' ? 'B' : 'both',
    }))
  }
  return {
    workspace: report.fileName,
    set: report.set,
    depth: report.depth,
    judgeDepth: report.sides[0].judgeDepth,
    settings: report.sides[0].settings,
    metrics: stats.metrics,
    sides: report.sides.map((evaluation, index) => ({
      side: LETTERS[index],
      label: evaluation.targetText,
      means: evaluation.scored.means,
      counted: evaluation.scored.counted,
      failed: evaluation.scored.failed,
    })),
    alpha: stats.alpha,
    family: stats.family,
    comparisons: stats.comparisons.map(({ other: _other, ...comparison }) => ({ ...comparison, label: labels.get(comparison.metric) ?? comparison.metric })),
    deltas,
    failed: stats.failed.map((each) => ({ side: letterOf(each.side), id: each.id, text: each.text, error: each.error })),
    gates: report.gates.map((gate) => ({ gate: gate.text, metric: gate.metric, margin: gate.margin, failed: gate.failed, meanDelta: gate.meanDelta, pAdjusted: gate.pAdjusted, reason: gate.reason })),
    ...(report.attribution !== null ? { attribution: attributionTable(report) } : {}),
    reused: report.reused,
  }
}
