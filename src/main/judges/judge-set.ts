import { RESULTS_NOT_FETCHED, type JudgeEstimate, type JudgeFailure } from '../../shared/ipc/judge-contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { fewShotChooser, fewShotQueries } from '../../shared/relevance/few-shot'
import { judgeRater, type FewShotExample, type Judge } from '../../shared/relevance/llm-judge'
import { scaleOf, scaleText, type QuerySet, type Scale } from '../../shared/relevance/query-set'
import type { EndState } from '../jobs/background-jobs'
import { CallMeter } from './call-meter'
import { fetchJudgeItems, queueTasks, type JudgeItemsInput } from './judge-items'
import type { JudgeCache, JudgeScope, JudgeTask } from './judge-plan'
import { planJudging } from './judge-plan'
import { runJudging, type GradedItem } from './judge-run'
import { judgeClient, type JudgeClientOptions } from './provider-client'

/**
 * One judging of a set, the same for the window's background job and the
 * command line: fetch each query's top k (or only the pairs asked: a
 * judge-next queue, or the failures of an earlier run), plan (prompts,
 * digests, the cache, what is current or stale), and unless it is a dry run,
 * grade within the budget, handing each grade to `rate` as it comes. With
 * few-shot examples it also fetches the queries they come from, at the
 * judge's own depth (few-shot.ts), so they are the same whatever it judges.
 */

/**
 * Failures a run keeps (Retry failed retries these); past them each is only
 * counted, so a run of 100,000 failing items holds a bounded list.
 */
export const MAX_FAILURES_KEPT = 10_000

/** What a judging reports as it runs (the job's status, the command line's output). */
export interface JudgingProgress {
  phase: string
  done: number
  total: number
  estimate: JudgeEstimate | null
  graded: number
  cached: number
  /** The first MAX_FAILURES_KEPT failures (recordFailure). */
  failures: JudgeFailure[]
  /** Failures past those kept: counted, not kept (the status's failedCount is both). */
  failuresNotKept?: number | undefined
  calls: number
  tokens: { input: number; output: number }
  stoppedByBudget: boolean
  /** Items of the scope not graded and not failed (failures are counted apart): the planned, less each graded or failed as it comes. */
  left: number
}

/** Keeps a failure, or past MAX_FAILURES_KEPT only counts it. */
export function recordFailure(progress: JudgingProgress, failure: JudgeFailure): void {
  if (progress.failures.length < MAX_FAILURES_KEPT) progress.failures.push(failure)
  else progress.failuresNotKept = (progress.failuresNotKept ?? 0) + 1
}

/** Every failure of a run, kept or only counted. */
export function failureCount(progress: Pick<JudgingProgress, 'failures' | 'failuresNotKept'>): number {
  return progress.failures.length + (progress.failuresNotKept ?? 0)
}

export interface JudgeSetInput {
  judge: Judge
  set: QuerySet
  /** Where the calls go (judge-base-url.ts) and the key bound to its origin, if any. */
  baseUrl: string
  key: string | null
  /** How the set's results are fetched: the runner, target and template (judge-items.ts). */
  fetch: Omit<JudgeItemsInput, 'judge' | 'queries' | 'depth' | 'onQuery' | 'signal'>
  depth: number
  scope: JudgeScope
  /**
   * Only these (a judge-next queue's pairs; Retry failed's pairs, and the
   * queries whose results failed); null: every query's top `depth`.
   * `notKept`: failures of the earlier run that were counted, not kept (the
   * message says they were not retried).
   */
  only: { pairs: readonly { query: string; item: string }[]; queries: readonly string[]; notKept?: number | undefined } | null
  budget: { calls: number; tokens?: number | undefined }
  concurrency: number
  dryRun: boolean
  cache: JudgeCache | null
  signal: AbortSignal
  progress: JudgingProgress
  /** Takes one grade into the document (a rating of the judge's rater, journaled): a throw fails that item. */
  rate(task: JudgeTask, graded: GradedItem): Promise<void>
  clientOptions?: JudgeClientOptions | undefined
}

/** The scale a judge answers on: its own when it names one, which must be the set's grades. */
export function judgeScale(judge: Judge, set: QuerySet): Scale {
  const scale = scaleOf(set)
  if (!judge.scale) return scale
  const grades = (each: Scale) => each.map((step) => step.grade).join(',')
  if (grades(judge.scale) !== grades(scale)) {
    throw new ExplorerError(
      'validation',
      `scale: the judge "${judge.name}" grades on ${scaleText(judge.scale)}, the set "${set.name}" on ${scaleText(scale)}; give the judge the set's scale or none.`,
    )
  }
  return judge.scale
}

const count = (n: number) => n.toLocaleString('en-US')

export async function judgeSet(input: JudgeSetInput): Promise<{ state: EndState; message: string | null }> {
  const { judge, set, progress, signal } = input
  const scale = judgeScale(judge, set)
  progress.phase = 'fetching results'
  const fetchInput = { ...input.fetch, judge, depth: input.depth, signal, onQuery: (done: number, total: number) => ((progress.done = done), (progress.total = total)) }
  const only = input.only
  const wanted = only && new Set([...only.pairs.map((pair) => pair.query), ...only.queries])
  const queries = wanted ? set.queries.filter((query) => wanted.has(query.id)) : set.queries
  progress.total = queries.length
  const items = await fetchJudgeItems({ ...fetchInput, queries })
  if (signal.aborted) return { state: 'cancelled', message: 'Cancelled while fetching the results: nothing was graded.' }
  for (const failure of items.failed) recordFailure(progress, { query: failure.query, item: RESULTS_NOT_FETCHED, reason: `The results could not be fetched: ${failure.reason}` })
  if (only) {
    const whole = new Set(only.queries)
    const pairs = queueTasks(items, queries, only.pairs.filter((pair) => !whole.has(pair.query)))
    for (const pair of pairs.missing) recordFailure(progress, { ...pair, reason: `The item is no longer in the query's top ${count(input.depth)}.` })
    items.tasks = [...items.tasks.filter((task) => whole.has(task.query)), ...pairs.tasks]
  }
  let examples: ((queryId: string) => FewShotExample[]) | undefined
  let examplesUnfetched = 0
  if (judge.fewShot > 0) {
    const fewShot = { set, scale, count: judge.fewShot, seed: judge.fewShotSeed }
    // The examples' queries, at the judge's own depth: those this run fetched at that depth already are not asked again.
    const fetched = input.depth === judge.depth ? items.contents : new Map<string, Map<string, Record<string, unknown>>>()
    const more = new Set(fewShotQueries(fewShot).filter((id) => !fetched.has(id)))
    const contents = new Map(fetched)
    if (more.size > 0) {
      progress.phase = 'fetching few-shot examples'
      const extra = await fetchJudgeItems({ ...fetchInput, depth: judge.depth, queries: set.queries.filter((query) => more.has(query.id)), onQuery: undefined })
      if (signal.aborted) return { state: 'cancelled', message: 'Cancelled while fetching the results: nothing was graded.' }
      for (const [id, each] of extra.contents) contents.set(id, each)
      examplesUnfetched = extra.failed.length
    }
    examples = fewShotChooser({ ...fewShot, contents })
  }
  progress.phase = 'planning'
  let plan: Awaited<ReturnType<typeof planJudging>>
  try {
    // The cache is keyed by the base URL the file names: the demo's judge moves to a new port every launch, and its grades are still its grades.
    plan = await planJudging({ judge, scale, baseUrl: judge.baseUrl, tasks: items.tasks, existing: set.judgments, cache: input.cache, scope: input.scope, examples, signal })
  } catch (error) {
    if (signal.aborted) return { state: 'cancelled', message: 'Cancelled while planning: nothing was graded.' }
    throw error
  }
  progress.estimate = plan.estimate
  progress.left = plan.toGrade.length
  if (input.dryRun) {
    progress.phase = 'estimated'
    return { state: 'done', message: `Estimate: ${plan.estimate.text}; ${count(plan.estimate.cached)} from the cache, ${count(plan.estimate.stale)} stale, ${count(plan.estimate.current)} graded already.` }
  }
  progress.phase = 'judging'
  progress.done = 0
  progress.total = plan.toGrade.length
  const meter = new CallMeter(input.budget)
  const client = judgeClient(judge, input.baseUrl, input.key, meter, input.clientOptions)
  const sync = () => {
    progress.calls = meter.calls
    progress.tokens = { ...meter.tokens }
  }
  const result = await runJudging({
    planned: plan.toGrade,
    scale,
    client,
    meter,
    concurrency: input.concurrency,
    signal,
    cache: input.cache,
    onGraded: async (task, graded) => {
      await input.rate(task, graded)
      if (graded.cached) progress.cached++
      else progress.graded++
      progress.done++
      progress.left--
      sync()
    },
    onFailed: (task, reason) => {
      recordFailure(progress, { query: task.query, item: task.item, reason })
      progress.done++
      progress.left--
      sync()
    },
  })
  sync()
  progress.stoppedByBudget = result.stoppedByBudget
  progress.left = result.left
  progress.phase = 'done'
  const graded = `${count(result.graded)} graded, ${count(result.cached)} from the cache`
  // Failures of the run's own (an answer off the scale) and those found before it (results not fetched, an item gone).
  const failures = failureCount(progress)
  const notKept = only?.notKept ? ` (${count(only.notKept)} failures of the earlier run were not kept, so not retried: judge the set again for them)` : ''
  const unfetched = examplesUnfetched > 0 ? ` (the results of ${count(examplesUnfetched)} few-shot examples' queries could not be fetched: their examples were left out)` : ''
  const failed = (failures > 0 ? `, ${count(failures)} failed` : '') + notKept + unfetched
  if (result.cancelled) return { state: 'cancelled', message: `Cancelled: ${graded}${failed}, ${count(result.left)} left; what was graded is kept.` }
  if (result.stoppedByBudget) {
    const budget = input.budget.tokens !== undefined && meter.calls < input.budget.calls ? `${count(input.budget.tokens)} tokens` : `${count(input.budget.calls)} calls`
    return { state: 'done', message: `Stopped at the budget of ${budget}: ${graded}${failed}, ${count(result.left)} left.` }
  }
  return { state: 'done', message: `${graded}${failed} as ${judgeRater(judge)}.` }
}
