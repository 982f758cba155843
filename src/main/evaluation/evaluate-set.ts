import { createHash, randomUUID } from 'node:crypto'
import type { RunTarget } from '../../shared/compare/compare-targets'
import { judgeDepthOf, scoreRankings, type Evaluation, type QueryRanking } from '../../shared/relevance/evaluation'
import type { MetricSpec } from '../../shared/relevance/metrics'
import { scaleOf, type MetricSettings, type QuerySet } from '../../shared/relevance/query-set'
import type { QueryRequest } from '../../shared/query/model'
import type { TargetOverrides } from '../../shared/test-cases/case-request'
import type { QueryTarget } from '../http/query-runner'
import { runSetQueries, type PageRunner, type RankingMemo } from './run-set'

/**
 * A whole evaluation of a set on one target: every query run to the depth,
 * scored against the set's judgments, stamped with what it ran on and
 * digests of the set and its judgments (two evaluations are comparable when
 * those agree). The Evaluation view and `query-explorer eval` both come here.
 */

export interface EvaluateSetInput {
  runner: PageRunner
  /** Rankings shared with the other evaluations of an experiment (experiments/ranking-memo.ts). */
  memo?: RankingMemo | undefined
  target: QueryTarget
  /** The target as the window names it (null: the template's own connection). */
  targetSpec: RunTarget | null
  targetText: string
  overrides: TargetOverrides
  workspaceName: string
  set: QuerySet
  template: QueryRequest
  metrics: readonly MetricSpec[]
  settings: MetricSettings
  depth: number
  concurrency?: number | undefined
  signal?: AbortSignal | undefined
  runId: string
  onQuery?: (ranking: QueryRanking, index: number) => void
  now?: () => Date
  /** A per-step attribution's prefix, when the template is cut there. */
  step?: string | undefined
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** What the queries asked: the template and each query's id and text, in order. */
export function setDigest(set: QuerySet, template: QueryRequest): string {
  return sha256(JSON.stringify({ template, queries: set.queries.map((query) => [query.id, query.text]) }))
}

/** The judgments, whatever order they are held in. */
export function judgmentsDigest(set: QuerySet): string {
  const lines = set.judgments.map((judgment) => JSON.stringify([judgment.query, judgment.item, judgment.grade])).sort()
  return sha256(JSON.stringify({ scale: scaleOf(set), lines }))
}

export async function evaluateSet(input: EvaluateSetInput): Promise<Evaluation> {
  const at = (input.now ?? (() => new Date()))()
  const started = performance.now()
  const judgeDepth = judgeDepthOf(input.metrics)
  const rankings = await runSetQueries({
    runner: input.runner,
    target: input.target,
    template: input.template,
    queries: input.set.queries,
    depth: input.depth,
    labelDepth: Math.max(judgeDepth, 10),
    overrides: input.overrides,
    concurrency: input.concurrency,
    signal: input.signal,
    runId: input.runId,
    onQuery: input.onQuery,
    memo: input.memo,
  })
  return {
    id: randomUUID(),
    set: input.set.name,
    workspace: input.workspaceName,
    target: input.targetSpec,
    targetText: input.targetText,
    at: at.toISOString(),
    depth: input.depth,
    judgeDepth,
    settings: input.settings,
    scale: scaleOf(input.set),
    setDigest: setDigest(input.set, input.template),
    judgmentsDigest: judgmentsDigest(input.set),
    state: input.signal?.aborted ? 'cancelled' : 'done',
    durationMs: performance.now() - started,
    ...(input.step !== undefined ? { step: input.step } : {}),
    rankings,
    scored: scoreRankings(rankings, input.set, input.metrics, input.settings, judgeDepth),
  }
}
