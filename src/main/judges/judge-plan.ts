import type { JudgeEstimate } from '../../shared/ipc/judge-contract'
import { ESTIMATED_OUTPUT_TOKENS, estimateText, estimateTokens, judgeRater, renderJudgePrompt, type FewShotExample, type Judge } from '../../shared/relevance/llm-judge'
import type { Judgment, Scale } from '../../shared/relevance/query-set'
import { cacheKey, promptDigest } from './prompt-digest'

/**
 * What a judging run will do, before it sends anything: each item's prompt
 * rendered (with its few-shot examples), its digest and cache key; which
 * items the judge graded already under the same prompt (current), under
 * another (stale), or not at all; what the cache answers; and so the
 * estimate shown before start ("about 1,240 calls, 1.1 M input tokens").
 */

/** One item to judge: the set's query (its id and text), the item's key and the attributes the prompt may show. */
export interface JudgeTask {
  /** The set's query id. */
  query: string
  queryText: string
  item: string
  fields: Record<string, unknown>
}

/** Grades kept by judge settings, prompt digest, query and item content (cacheKey): judging again costs nothing. */
export interface JudgeCache {
  get(key: string): Promise<{ grade: number; explanation: string } | null>
  set(key: string, value: { grade: number; explanation: string; promptDigest: string }): Promise<void>
}

/** ungraded: what the judge has not graded (the default); stale: that and its grades under another prompt; all: every item. */
export type JudgeScope = 'ungraded' | 'stale' | 'all'

/** How an item stands with the judge before the run. */
export type TaskState = 'new' | 'stale' | 'current'

export interface PlannedTask {
  task: JudgeTask
  prompt: string
  promptDigest: string
  key: string
  state: TaskState
  /** The cache's answer: no call needed. */
  cached: { grade: number; explanation: string } | null
}

export interface PlanInput {
  judge: Judge
  scale: Scale
  /**
   * The base URL the cache key names: the judge's own as its file names it
   * when left out (prompt-digest.ts), so the demo, on a new port each launch
   * (judge-base-url.ts moves the calls), keeps its cache.
   */
  baseUrl?: string | undefined
  tasks: readonly JudgeTask[]
  /** The set's judgments (every rater's: the judge's own are picked out). */
  existing: readonly Judgment[]
  cache: JudgeCache | null
  scope: JudgeScope
  /** Each query's few-shot examples (few-shot.ts), none when left out. */
  examples?: ((queryId: string) => readonly FewShotExample[]) | undefined
}

export interface JudgePlan {
  /** The items the run grades, those the cache answers first. */
  toGrade: PlannedTask[]
  estimate: JudgeEstimate
}

const pairKey = (query: string, item: string) => `${query}\u0000${item}`

/** The estimate of what is planned: a call per item the cache does not answer. */
export function estimateOf(toGrade: readonly PlannedTask[], counts: { current: number; stale: number }): JudgeEstimate {
  let calls = 0
  let cached = 0
  let inputTokens = 0
  for (const planned of toGrade) {
    if (planned.cached) cached++
    else {
      calls++
      inputTokens += estimateTokens(planned.prompt)
    }
  }
  return { calls, inputTokens, outputTokens: calls * ESTIMATED_OUTPUT_TOKENS, cached, current: counts.current, stale: counts.stale, text: estimateText(calls, inputTokens) }
}

export async function planJudging(input: PlanInput): Promise<JudgePlan> {
  const { judge, scale, scope } = input
  const baseUrl = input.baseUrl ?? judge.baseUrl
  const rater = judgeRater(judge)
  const digests = new Map<string, string | undefined>()
  for (const judgment of input.existing) if (judgment.rater === rater) digests.set(pairKey(judgment.query, judgment.item), judgment.promptDigest)
  let current = 0
  let stale = 0
  const chosen: PlannedTask[] = []
  const seen = new Set<string>()
  for (const task of input.tasks) {
    const pair = pairKey(task.query, task.item)
    // An item a query lists twice (or a queue names twice) is judged once.
    if (seen.has(pair)) continue
    seen.add(pair)
    const prompt = renderJudgePrompt(judge, scale, task.queryText, { item: task.item, fields: task.fields }, input.examples?.(task.query) ?? [])
    const digest = promptDigest(prompt)
    const graded = digests.has(pair)
    const state: TaskState = !graded ? 'new' : digests.get(pair) === digest ? 'current' : 'stale'
    if (state === 'current') current++
    if (state === 'stale') stale++
    const wanted = state === 'new' || scope === 'all' || (state === 'stale' && scope === 'stale')
    if (wanted) chosen.push({ task, prompt, promptDigest: digest, key: cacheKey(judge, baseUrl, prompt), state, cached: null })
  }
  if (input.cache) {
    const cache = input.cache
    // Asked all at once: the store's thread answers them in order, without a round trip's wait between each.
    const answers = await Promise.all(chosen.map((planned) => cache.get(planned.key)))
    answers.forEach((answer, index) => (chosen[index]!.cached = answer))
  }
  // The cache's answers first: they cost nothing, and a budget then goes to the items that need a call.
  const toGrade = [...chosen.filter((planned) => planned.cached), ...chosen.filter((planned) => !planned.cached)]
  return { toGrade, estimate: estimateOf(toGrade, { current, stale }) }
}

