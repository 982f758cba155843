import { DEFAULT_ALPHA, gateFails, parseGate } from '../../shared/experiments/experiment'
import type { ExperimentStats, MetricComparison } from '../../shared/experiments/experiment-record'
import { metricKey, type MetricSpec } from '../../shared/relevance/metrics'
import { InputError, stringOption, type OptionValues } from '../command'
import { parseSideSpec, type SideSpec } from './compare-command'

/**
 * The flags that make `eval` an experiment: --a and --b (the sides, as
 * `compare` takes them), --attribution, --gate (repeatable) and --alpha;
 * and what each gate says of the statistics. Bad input names the flag and
 * the rule (exit 2).
 */

export interface Gate {
  /** As given, trimmed: "ndcg@10:-0.01". */
  text: string
  /** The metric's key. */
  metric: string
  margin: number
}

export interface ExperimentFlags {
  a: SideSpec
  b: SideSpec
  attribution: boolean
  gates: Gate[]
  alpha: number
}

const strings = (value: OptionValues[string]): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).filter((each): each is string => typeof each === 'string')

/** --alpha: a decimal number strictly between 0 and 1. */
export function alphaOf(values: OptionValues): number {
  const text = stringOption(values, 'alpha')
  if (text === undefined) return DEFAULT_ALPHA
  const value = Number(text.trim())
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text.trim()) || !(value > 0 && value < 1)) {
    throw new InputError([`--alpha: "${text}" is not a significance level: write a decimal number between 0 and 1, both left out (e.g. 0.05).`])
  }
  return value
}

/** The gates, each read by parseGate and its metric checked against the run's metrics. */
export function gatesOf(values: OptionValues, metrics: readonly MetricSpec[]): Gate[] {
  const keys = metrics.map(metricKey)
  return strings(values.gate).map((text) => {
    const parsed = parseGate(text)
    if (!parsed.ok) throw new InputError([`--gate: ${parsed.message}.`])
    if (!keys.includes(parsed.metric)) {
      throw new InputError([`--gate: "${text.trim()}" gates ${parsed.metric}, which is not among the metrics (${keys.join(', ')}): add it to --metrics, or gate one of those.`])
    }
    return { text: text.trim(), metric: parsed.metric, margin: parsed.margin }
  })
}

/** The experiment the flags ask for, or null (no --a and --b: one target, as eval always was). */
export function experimentFlagsOf(values: OptionValues, metrics: readonly MetricSpec[]): ExperimentFlags | null {
  const a = stringOption(values, 'a')
  const b = stringOption(values, 'b')
  if ((a === undefined) !== (b === undefined)) {
    const [given, missing] = a === undefined ? ['--b', '--a'] : ['--a', '--b']
    throw new InputError([`${given}: an experiment has two sides: give ${missing} too (e.g. --a config=default --b config=production), or neither to evaluate one target.`])
  }
  if (a === undefined || b === undefined) {
    const alone = [values.attribution === true && '--attribution', strings(values.gate).length > 0 && '--gate', stringOption(values, 'alpha') !== undefined && '--alpha'].filter(Boolean)
    if (alone.length > 0) throw new InputError([`${alone[0]}: compares two sides: give --a SPEC and --b SPEC too (e.g. --a config=default --b config=production).`])
    return null
  }
  return { a: parseSideSpec('a', a), b: parseSideSpec('b', b), attribution: values.attribution === true, gates: gatesOf(values, metrics), alpha: alphaOf(values) }
}

export interface GateResult extends Gate {
  failed: boolean
  meanDelta: number | null
  pAdjusted: number | null
  /** Why it passed or failed, in words: "Δ -0.3444 < -0.0100 and p Holm 0.0007 < alpha 0.05". */
  reason: string
}

export const signed = (value: number | null) => (value === null ? '–' : `${value < 0 ? '-' : '+'}${Math.abs(value).toFixed(4)}`)
export const pText = (value: number | null) => (value === null ? '–' : value < 0.0001 ? '<0.0001' : value.toFixed(4))

/** What each gate says of B against A (the first other side): gateFails, with the reason in words. */
export function gateResults(gates: readonly Gate[], stats: ExperimentStats): GateResult[] {
  return gates.map((gate) => {
    const comparison = stats.comparisons.find((each) => each.metric === gate.metric && each.other === 0)
    const failed = comparison ? gateFails(comparison, gate.margin, stats.alpha) : true
    return { ...gate, failed, meanDelta: comparison?.meanDelta ?? null, pAdjusted: comparison?.pAdjusted ?? null, reason: gateReason(gate, comparison, stats.alpha, failed) }
  })
}

function gateReason(gate: Gate, comparison: MetricComparison | undefined, alpha: number, failed: boolean): string {
  if (!comparison || comparison.meanDelta === null || comparison.pAdjusted === null) return 'no query has a figure on both sides: nothing shows the rule holds'
  const delta = `Δ ${signed(comparison.meanDelta)}`
  const p = `p Holm ${pText(comparison.pAdjusted)}`
  const margin = gate.margin > 0 ? `+${gate.margin}` : String(gate.margin)
  if (gate.margin <= 0) {
    if (failed) return `${delta} < ${margin} and ${p} < alpha ${alpha}: B is below A by more than ${Math.abs(gate.margin)}, and that is more than noise`
    if (comparison.meanDelta >= gate.margin) return `${delta}, ${p}`
    return `${delta} < ${margin}, but ${p} ≥ alpha ${alpha}: the drop is not shown to be more than noise`
  }
  if (!failed) return `${delta} ≥ ${margin} and ${p} < alpha ${alpha}`
  if (comparison.meanDelta < gate.margin) return `${delta} < ${margin}: B does not improve on A by the margin the gate asks`
  return `${delta} ≥ ${margin}, but ${p} ≥ alpha ${alpha}: the improvement is not shown to be more than noise`
}
