import type { WorkspaceBinding } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { RESULTS_NOT_FETCHED, type JudgeFailure, type JudgeRunStart } from '../../shared/ipc/judge-contract'
import { requireJudge } from '../../shared/relevance/judge-edits'
import { judgeRater, MAX_JUDGE_DEPTH, type Judge } from '../../shared/relevance/llm-judge'
import type { QuerySet } from '../../shared/relevance/query-set'
import type { ConnectionRegistry } from '../connections/connection-registry'
import { setRunInputs, setTarget } from '../evaluation/set-inputs'
import type { QueryRunner } from '../http/query-runner'
import type { EvaluationStore } from '../evaluation/evaluation-store'
import { evaluationJudgeNext, experimentJudgeNext } from '../evaluation/judge-next-thread'
import type { ExperimentStore } from '../experiments/experiment-store'
import type { WorkspaceSession } from '../workspaces/workspace-session'
import { boundConnections, judgeBaseUrl } from './judge-base-url'
import type { JudgeProgress, JudgeStart } from './judge-jobs'
import type { JudgeKeys } from './judge-keys'
import type { JudgeCache } from './judge-plan'
import { GradeWriter } from './grade-writer'
import { judgeSet } from './judge-set'

/**
 * A judging run of the window, from its request: the judge and set as the
 * open document has them now, where the judge's calls go (moved with the
 * demo's binding), the key bound to that origin, the target the set's
 * results come from, and each grade taken into the document as a rating of
 * the judge's rater (journaled, so it survives a crash like a person's).
 */

export interface JudgeStartDeps {
  session: WorkspaceSession
  registry: ConnectionRegistry
  runner: QueryRunner
  keys: JudgeKeys
  cache: JudgeCache
  /** Where a judge-next queue comes from: a kept evaluation, or a kept experiment and its sides' evaluations. */
  evaluations: EvaluationStore
  experiments: ExperimentStore
}

/**
 * The first `limit` pairs of a kept evaluation's or experiment's What to
 * judge next queue (judge-next-thread.ts, as the window's Judge next walks
 * it), and how deep the results must be fetched to hold them.
 */
async function judgeNextPairs(deps: JudgeStartDeps, set: QuerySet, next: NonNullable<JudgeRunStart['next']>): Promise<{ pairs: { query: string; item: string }[]; depth: number }> {
  let queue
  if (next.from === 'evaluation') queue = (await evaluationJudgeNext(deps.evaluations, next.id, set, next.limit)).queue
  else {
    const record = await deps.experiments.get(next.id)
    if (!record) throw new ExplorerError('not_found', `next.id: there is no kept experiment with the id "${next.id.slice(0, 80)}".`)
    if (record.set !== set.name) throw new ExplorerError('validation', `next.id: the experiment ran on the set "${record.set.slice(0, 200)}", not "${set.name.slice(0, 200)}".`)
    queue = (await experimentJudgeNext(deps.evaluations, record, set, next.limit)).queue
  }
  const deepest = Math.max(0, ...queue.flatMap((entry) => entry.ranks.filter((rank): rank is number => rank !== null)))
  return { pairs: queue.map(({ query, item }) => ({ query, item })), depth: Math.min(MAX_JUDGE_DEPTH, deepest) }
}

/** The judge's base URL here: moved like the file connection with its origin, when that one is bound "moved" (judge-base-url.ts). */
export function judgeBaseUrlHere(registry: ConnectionRegistry, bindings: readonly WorkspaceBinding[], judge: Judge): string {
  const moved = bindings.flatMap((binding) =>
    binding.connectionId !== null && binding.how === 'moved'
      ? [{ fileConnectionId: binding.fileConnectionId, connectionId: binding.connectionId, how: 'moved' as const }]
      : [],
  )
  const connections = bindings.map((binding) => ({ id: binding.fileConnectionId, authUrl: binding.connection.authUrl, queryUrl: binding.connection.queryUrl }))
  const appOf = (id: string) => {
    try {
      const app = registry.get(id)
      return { authUrl: app.authUrl, queryUrl: app.queryUrl }
    } catch {
      return null
    }
  }
  return judgeBaseUrl(judge.baseUrl, boundConnections(connections, moved, appOf))
}

/** The base URL of the document's judge of that name, here. */
export async function judgeBaseUrlOf(deps: Pick<JudgeStartDeps, 'session' | 'registry'>, name: string): Promise<string> {
  const { workspace } = await deps.session.current()
  const context = await deps.session.testContext()
  return judgeBaseUrlHere(deps.registry, workspace.bindings, requireJudge(context.workspace, name))
}

/** Checks the request against the document and makes the run's work; refused at once (validation) when it cannot run. */
export async function judgeRunWork(deps: JudgeStartDeps, request: JudgeRunStart, retry: { failures: readonly JudgeFailure[]; notKept: number } | null): Promise<JudgeStart['work']> {
  const { session, registry, runner, keys, cache } = deps
  const { workspace: view } = await session.current()
  const context = await session.testContext()
  const judge = requireJudge(context.workspace, request.judge)
  const inputs = setRunInputs(context, request.set, undefined)
  const { target, overrides } = setTarget(registry, context, inputs, request.target)
  const baseUrl = judgeBaseUrlHere(registry, view.bindings, judge)
  const key = await keys.get(baseUrl)
  if (retry && retry.failures.length === 0) throw new ExplorerError('validation', `retryOf: the run "${request.retryOf}" has no failures to retry.`)
  if (retry && request.next) throw new ExplorerError('validation', 'next: Retry failed grades the failures of a run; a judge-next queue is a run of its own.')
  let depth = request.depth ?? judge.depth
  let only: { pairs: { query: string; item: string }[]; queries: string[]; notKept?: number } | null = retry && {
    pairs: retry.failures.filter((failure) => failure.item !== RESULTS_NOT_FETCHED).map(({ query, item }) => ({ query, item })),
    queries: retry.failures.filter((failure) => failure.item === RESULTS_NOT_FETCHED).map(({ query }) => query),
    notKept: retry.notKept,
  }
  if (request.next) {
    const queue = await judgeNextPairs(deps, inputs.set, request.next)
    if (queue.pairs.length === 0) throw new ExplorerError('validation', 'next: the judge-next queue is empty: nothing left to judge changes a figure.')
    only = { pairs: queue.pairs, queries: [] }
    // Deep enough for every pair's rank in the kept rankings.
    depth = Math.max(depth, queue.depth)
  }
  const rater = judgeRater(judge)
  // The grades as they come, taken into the document a batch at a time (grade-writer.ts).
  // Into the document open now only: another one opened meanwhile (its set may share the name) takes none of them.
  const opening = session.opening()
  const writer = new GradeWriter((ratings) => session.rateMany(request.set, ratings, opening))
  return async (progress: JudgeProgress, signal: AbortSignal) => {
    // The set as it is when the run starts: its judgments say what the judge has graded already.
    const set = (await session.testContext()).workspace.sets?.find((each) => each.name === request.set) ?? inputs.set
    return judgeSet({
      judge,
      set,
      baseUrl,
      key,
      fetch: { runner, target, template: inputs.template, overrides, concurrency: undefined, runId: request.runId },
      depth,
      scope: request.retryOf ? 'all' : request.scope,
      only,
      budget: { calls: request.budgetCalls, tokens: request.budgetTokens },
      concurrency: request.concurrency ?? judge.concurrency,
      dryRun: request.dryRun,
      cache,
      signal,
      progress,
      rate: (task, graded) =>
        writer.take({ set: request.set, query: task.query, item: task.item, rater, grade: graded.grade, explanation: graded.explanation, promptDigest: graded.promptDigest }),
    })
  }
}
