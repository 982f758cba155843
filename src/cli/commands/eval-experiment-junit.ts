import { metricKey, metricLabel } from '../../shared/relevance/metrics'
import { xmlAttribute, xmlText } from '../../shared/text/xml-escape'
import { gateLine, LETTERS, type ExperimentReport } from './eval-experiment-output'
import { figure, seconds } from './eval-output'
import { pText, signed } from './eval-gates'

/**
 * An experiment as JUnit XML: one testcase per query (failed when it failed
 * to run on a side; its figures on A and B and the deltas in system-out),
 * then one testcase per gate (failed when the gate fails, with the numbers).
 */
export function experimentJUnit(report: ExperimentReport): string {
  const [a, b] = report.sides
  const { stats } = report
  const suite = `query-explorer.eval.${report.set}`
  const queries = queryRows(report)
  const tests = queries.length + report.gates.length
  const failures = queries.filter((query) => query.failure !== null).length + report.gates.filter((gate) => gate.failed).length
  const time = seconds(a.durationMs + b.durationMs)
  const byKey = new Map(stats.comparisons.map((c) => [c.metric, c]))
  const summary = [
    `A: ${a.targetText}`,
    `B: ${b.targetText}`,
    ...report.metrics.map((spec) => {
      const c = byKey.get(metricKey(spec))
      if (!c) return `${metricLabel(spec)} not compared`
      return `${metricLabel(spec)}  A ${figure(c.baselineMean)}  B ${figure(c.otherMean)}  Δ ${signed(c.meanDelta)}  ${c.wins} W / ${c.ties} T / ${c.losses} L  p ${pText(c.p)}  p Holm (${stats.family}) ${pText(c.pAdjusted)}${c.significant ? '  significant' : ''}`
    }),
    `alpha ${stats.alpha}`,
    report.settingsLine,
  ]
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(suite)}" tests="${tests}" failures="${failures}" errors="0" time="${time}">`,
    `  <testsuite name="${xmlAttribute(`${report.set}: B ${b.targetText} against A ${a.targetText}`)}" tests="${tests}" failures="${failures}" errors="0" skipped="0" time="${time}">`,
    `    <system-out>${xmlText(summary.join('\n'))}</system-out>`,
  ]
  for (const query of queries) {
    lines.push(`    <testcase name="${xmlAttribute(`${query.id} ${query.text}`)}" classname="${xmlAttribute(suite)}" time="${seconds(query.durationMs)}">`)
    if (query.failure !== null) lines.push(`      <failure message="${xmlAttribute(query.failure.split('\n')[0] ?? '')}" type="QueryFailed">${xmlText(query.failure)}</failure>`)
    lines.push(`      <system-out>${xmlText(query.out.join('\n'))}</system-out>`, '    </testcase>')
  }
  for (const gate of report.gates) {
    lines.push(`    <testcase name="${xmlAttribute(`gate ${gate.text}`)}" classname="${xmlAttribute(`${suite}.gates`)}" time="0.000">`)
    const numbers = `${gateLine(gate)}\nmetric ${gate.metric}, margin ${signed(gate.margin)}, mean delta ${signed(gate.meanDelta)}, p Holm ${pText(gate.pAdjusted)}, alpha ${stats.alpha}`
    if (gate.failed) lines.push(`      <failure message="${xmlAttribute(`gate ${gate.text} failed: ${gate.reason}`)}" type="GateFailed">${xmlText(numbers)}</failure>`)
    else lines.push(`      <system-out>${xmlText(numbers)}</system-out>`)
    lines.push('    </testcase>')
  }
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}

interface QueryRow {
  id: string
  text: string
  durationMs: number
  /** Why it failed, side by side; null when it ran on both. */
  failure: string | null
  out: string[]
}

/** A row per query of either side, in the set's order, with its figures and deltas. */
function queryRows(report: ExperimentReport): QueryRow[] {
  const { stats } = report
  const ids: { id: string; text: string }[] = []
  const seen = new Set<string>()
  for (const evaluation of report.sides) {
    for (const { id, text } of evaluation.rankings) {
      if (seen.has(id)) continue
      seen.add(id)
      ids.push({ id, text })
    }
  }
  const rankings = report.sides.map((evaluation) => new Map(evaluation.rankings.map((ranking) => [ranking.id, ranking])))
  const rowsOf = new Map(stats.metrics.map((metric) => [metric, new Map((stats.deltas[`0:${metric}`] ?? []).map((row) => [row.id, row]))]))
  const labels = new Map(report.metrics.map((spec) => [metricKey(spec), metricLabel(spec)]))
  return ids.map(({ id, text }) => {
    const failures = stats.failed.filter((each) => each.id === id).map((each) => `failed on ${LETTERS[each.side + 1] ?? each.side + 1}: ${each.error}`)
    const figures = stats.metrics.map((metric) => {
      const row = rowsOf.get(metric)?.get(id)
      return `${labels.get(metric) ?? metric}  A ${figure(row?.baseline)}  B ${figure(row?.other)}  Δ ${signed(row?.delta ?? null)}`
    })
    const first = rowsOf.get(stats.metrics[0] ?? '')?.get(id)
    const noJudgments = figures.length > 0 && first !== undefined && first.baseline === null && first.other === null && failures.length === 0
    const out = [...(noJudgments ? ['no judgments: left out of the comparison'] : figures), ...(first ? [`unjudged in either top ${report.sides[0].judgeDepth}: ${first.unjudged}`] : [])]
    const durationMs = rankings.reduce((sum, byId) => sum + (byId.get(id)?.durationMs ?? 0), 0)
    return { id, text, durationMs, failure: failures.length > 0 ? failures.join('\n') : null, out }
  })
}
