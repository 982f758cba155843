import { evaluationRunFile, type RunFile } from '../../main/evaluation/run-file'
import type { Evaluation, QueryScores } from '../../shared/relevance/evaluation'
import { metricKey, metricLabel, type MetricSpec } from '../../shared/relevance/metrics'
import type { MetricSettings } from '../../shared/relevance/query-set'
import { aggregateText, type GradeSources } from '../../shared/relevance/settings-text'
import { xmlAttribute, xmlText } from '../../shared/text/xml-escape'
import { InputError } from '../command'
import type { CliIo } from '../io'
import { writeOutput } from '../output-files'

/**
 * What `eval` on one target prints: a line per query as it ends, the table
 * of figures and the means, the settings; and what it writes: JSON and
 * JUnit XML. An experiment's output (--a/--b) is eval-experiment-output.ts.
 */

/**
 * "exponential gain (2^g − 1), unjudged as not relevant, relevant from grade 1, depth 100, k for unjudged 10";
 * first, where two raters or more graded (`sources`), which grade the metrics use, in the window's words.
 */
export function settingsText(settings: MetricSettings, depth: number, judgeDepth: number, sources?: GradeSources): string {
  const aggregate = sources ? aggregateText(settings.aggregate, sources) : null
  const gain = settings.gain === 'exponential' ? 'exponential gain (2^g − 1)' : 'linear gain (g)'
  const unjudged = settings.unjudged === 'zero' ? 'unjudged as not relevant' : 'unjudged skipped (taken out of the ranking)'
  return `${aggregate !== null ? `${aggregate}, ` : ''}${gain}, ${unjudged}, relevant from grade ${settings.threshold}, depth ${depth}, k for unjudged ${judgeDepth}`
}

/** A metric whose k is deeper than the run went: its figure is over what was evaluated, and says so. */
export function belowK(metrics: readonly MetricSpec[], depth: number): string[] {
  return metrics
    .filter((spec) => spec.k !== null && spec.k > depth)
    .map((spec) => `${metricLabel(spec)} (depth ${depth} is below k: the figure is over the ${depth} evaluated)`)
}

export const figure = (value: number | null | undefined) => (value === null || value === undefined ? '–' : value.toFixed(4))

/** Cut to `max` characters (whole code points), with … where it was cut. */
export function clip(text: string, max: number): string {
  const points = [...text]
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : text
}

/** How much of a query's text a table row shows. */
export const TEXT_WIDTH = 30

/** The table of figures: a row per query, then the means. */
export function tableLines(evaluation: Evaluation, metrics: readonly MetricSpec[]): string[] {
  const { scored, judgeDepth } = evaluation
  const keys = metrics.map(metricKey)
  const unjudgedHeader = `unjudged@${judgeDepth}`
  const header = ['id', 'query', ...metrics.map(metricLabel), unjudgedHeader]
  const noteOf = (query: QueryScores) => (query.error !== null ? `failed: ${clip(query.error, 120)}` : query.scores === null ? 'no judgments' : '')
  const rows = scored.queries.map((query) => [
    query.id,
    clip(query.text, TEXT_WIDTH),
    ...keys.map((key) => figure(query.scores?.[key])),
    query.error !== null ? '–' : String(query.unjudged),
    noteOf(query),
  ])
  const mean = ['mean', `(${scored.counted} quer${scored.counted === 1 ? 'y' : 'ies'})`, ...keys.map((key) => figure(scored.means[key])), `Σ ${scored.unjudged}`, '']
  const all = [header, ...rows, mean]
  const widths = header.map((_, column) => Math.max(...all.map((row) => [...row[column]!].length)))
  // Text left, figures right; the note (last, unpadded) after them.
  const line = (row: string[]) =>
    row
      .map((cell, column) => {
        if (column >= header.length) return cell
        const pad = widths[column]! - [...cell].length
        return column < 2 ? cell + ' '.repeat(pad) : ' '.repeat(pad) + cell
      })
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line), line(mean)]
}

export function queryLine(ranking: Evaluation['rankings'][number]): string {
  const ms = `${Math.round(ranking.durationMs)} ms`
  if (ranking.error !== null) return `✗ ${ranking.id} ${clip(ranking.text, 60)}: failed: ${ranking.error} (${ms})`
  return `✓ ${ranking.id} ${clip(ranking.text, 60)}: ${ranking.items.length} result${ranking.items.length === 1 ? '' : 's'} (${ms})`
}

/** The evaluation as `--json` prints it. */
export function evaluationJson(evaluation: Evaluation, workspace: string): Record<string, unknown> {
  const { scored } = evaluation
  return {
    workspace,
    set: evaluation.set,
    target: evaluation.targetText,
    settings: evaluation.settings,
    depth: evaluation.depth,
    judgeDepth: evaluation.judgeDepth,
    metrics: scored.metrics,
    queries: scored.queries.map(({ id, text, scores, unjudged, returned, error }) => ({ id, text, scores, unjudged, returned, error })),
    means: scored.means,
    counted: scored.counted,
    failed: scored.failed,
    unjudgedQueries: scored.unjudgedQueries,
  }
}

export const seconds = (ms: number) => (ms / 1000).toFixed(3)

/** JUnit XML: a testcase per query, a failure for a query that failed to run, the figures of the others in system-out. */
export function evaluationJUnit(evaluation: Evaluation, metrics: readonly MetricSpec[], settings: string): string {
  const { scored } = evaluation
  const suite = `query-explorer.eval.${evaluation.set}`
  const tests = scored.queries.length
  const time = seconds(evaluation.durationMs)
  const meanLines = metrics.map((spec) => `${metricLabel(spec)} ${figure(scored.means[metricKey(spec)])}`)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(suite)}" tests="${tests}" failures="${scored.failed}" errors="0" time="${time}">`,
    `  <testsuite name="${xmlAttribute(`${evaluation.set} on ${evaluation.targetText}`)}" tests="${tests}" failures="${scored.failed}" errors="0" skipped="0" time="${time}">`,
    `    <system-out>${xmlText([`mean over ${scored.counted} of ${tests} queries`, ...meanLines, settings].join('\n'))}</system-out>`,
  ]
  scored.queries.forEach((query, index) => {
    const ranking = evaluation.rankings[index]
    const open = `    <testcase name="${xmlAttribute(`${query.id} ${query.text}`)}" classname="${xmlAttribute(suite)}" time="${seconds(ranking?.durationMs ?? 0)}">`
    lines.push(open)
    if (query.error !== null) {
      lines.push(`      <failure message="${xmlAttribute(query.error.split('\n')[0] ?? '')}" type="QueryFailed">${xmlText(query.error)}</failure>`)
    } else {
      const figures =
        query.scores === null
          ? ['no judgments: left out of the means']
          : metrics.map((spec) => `${metricLabel(spec)} ${figure(query.scores![metricKey(spec)])}`)
      const out = [...figures, `unjudged in top ${evaluation.judgeDepth}: ${query.unjudged}`, `returned: ${query.returned}`]
      lines.push(`      <system-out>${xmlText(out.join('\n'))}</system-out>`)
    }
    lines.push('    </testcase>')
  })
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}

/** Writes the rankings that ran as a TREC run file, the window's own (run-file.ts), and says how many queries it holds. */
export async function writeTrecRun(path: string, evaluation: Evaluation, io: Pick<CliIo, 'secrets'>): Promise<string> {
  let file: RunFile
  try {
    file = evaluationRunFile(evaluation)
  } catch (error) {
    throw new InputError([`--trec-run: ${(error as Error).message} Nothing was written to ${path}.`])
  }
  await writeOutput('--trec-run', path, file.text, io)
  return `TREC run file: ${path} (${file.queries} quer${file.queries === 1 ? 'y' : 'ies'})`
}
