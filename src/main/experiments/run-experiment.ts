import type { RunTarget } from '../../shared/compare/compare-targets'
import { templatePrefixes } from '../../shared/experiments/attribution'
import type { Evaluation } from '../../shared/relevance/evaluation'
import type { MetricSpec } from '../../shared/relevance/metrics'
import type { MetricSettings, QuerySet } from '../../shared/relevance/query-set'
import type { QueryRequest } from '../../shared/query/model'
import type { TargetOverrides } from '../../shared/test-cases/case-request'
import { evaluateSet } from '../evaluation/evaluate-set'
import type { PageRunner } from '../evaluation/run-set'
import type { QueryTarget } from '../http/query-runner'
import { rankingMemo } from './ranking-memo'

/**
 * An experiment's queries: the set evaluated on each side (the baseline
 * first), then, when asked, on the baseline's target with each prefix of
 * the template (per-step attribution). Every query goes through one memo,
 * so pages two of these ask are fetched once (ranking-memo.ts). The
 * window's Experiments view and `query-explorer eval --a … --b …` both come
 * here.
 */

export interface ExperimentTarget {
  spec: RunTarget | null
  /** "Demo, config production". */
  label: string
  target: QueryTarget
  overrides: TargetOverrides
}

export interface ExperimentProgress {
  /** "B: Demo, config production", "step 1–2: + country:FILTER". */
  phase: string
  /** Queries done of all the run asks, across the phases. */
  done: number
  total: number
}

export interface RunExperimentInput {
  runner: PageRunner
  set: QuerySet
  template: QueryRequest
  workspaceName: string
  sides: readonly ExperimentTarget[]
  metrics: readonly MetricSpec[]
  settings: MetricSettings
  depth: number
  /** Evaluate each prefix of the template on the baseline's target too. */
  attribution: boolean
  concurrency?: number | undefined
  signal?: AbortSignal | undefined
  runId: string
  onProgress?: (progress: ExperimentProgress) => void
}

export interface ExperimentRun {
  evaluations: Evaluation[]
  attribution: { label: string; steps: number; evaluation: Evaluation }[]
  /** Pages answered from rankings already made in the run instead of the service. */
  reused: number
}

/** A, B, C…: how the sides are named after their place. */
export const sideLetter = (index: number) => String.fromCharCode(65 + index)

export async function runExperiment(input: RunExperimentInput): Promise<ExperimentRun> {
  const shared = rankingMemo()
  const prefixes = input.attribution ? templatePrefixes(input.template) : []
  const queries = input.set.queries.length
  const total = queries * (input.sides.length + prefixes.length)
  let done = 0
  const evaluate = async (side: ExperimentTarget, template: QueryRequest, phase: string, runId: string, step?: string) => {
    input.onProgress?.({ phase, done, total })
    return evaluateSet({
      runner: input.runner,
      memo: shared.memo,
      target: side.target,
      targetSpec: side.spec,
      targetText: side.label,
      overrides: side.overrides,
      workspaceName: input.workspaceName,
      set: input.set,
      template,
      metrics: input.metrics,
      settings: input.settings,
      depth: input.depth,
      concurrency: input.concurrency,
      signal: input.signal,
      runId,
      step,
      onQuery: () => input.onProgress?.({ phase, done: ++done, total }),
    })
  }
  const evaluations: Evaluation[] = []
  for (const [index, side] of input.sides.entries()) {
    if (input.signal?.aborted) break
    evaluations.push(await evaluate(side, input.template, `${sideLetter(index)}: ${side.label}`, `${input.runId}:${index}`))
  }
  const attribution: ExperimentRun['attribution'] = []
  const baseline = input.sides[0]
  for (const prefix of prefixes) {
    if (input.signal?.aborted || !baseline) break
    const evaluation = await evaluate({ ...baseline, label: `${baseline.label}, steps ${prefix.label}` }, prefix.request, `step ${prefix.label}`, `${input.runId}:step${prefix.steps}`, prefix.label)
    attribution.push({ label: prefix.label, steps: prefix.steps, evaluation })
  }
  return { evaluations, attribution, reused: shared.reused() }
}
