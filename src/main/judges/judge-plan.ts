import type { JudgeEstimate } from '../../shared/ipc/judge-contract'
import { ESTIMATED_OUTPUT_TOKENS, estimateText, estimateTokens, judgeRater, renderJudgePrompt, type FewShotExample, type Judge } from '../../shared/relevance/llm-judge'
import type { Judgment, Scale } from '../../shared/relevance/query-set'
import { cacheKey, promptDigest } from './prompt-digest'

/**
 * What a judging run will do, before it sends anything: each item's prompt
 * rendered (with its few-shot examples), its digest and cache key; which
 * items the judge graded already under the same prompt and model settings
 * (current), under others (stale), or not at all; what the cache answers;
 * and so the estimate shown before start ("about 1,240 calls, 1.1 M input
 * tokens").
 *
 * A set of 100 queries at depth 1,000 is 100,000 prompts, each with its
 * few-shot examples: they are rendered and hashed a chunk at a time, giving
 * the event loop back between chunks (the window's other requests, a
 * cancel), and none is kept: a planned item holds its digest, key, token
 * estimate and task, and renders its prompt again when it is sent
 * (rendering is cheap and gives the same text every time).
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
  /** The rendered prompt: a planned item renders it again each time it is read, rather than keep it. */
  readonly prompt: string
  promptDigest: string
  key: string
  state: TaskState
  /** The cache's answer, on the scale: no call needed. */
  cached: { grade: number; explanation: string } | null
  /** The prompt's estimated input tokens, counted when it was planned (else counted from the prompt). */
  inputTokens?: number | undefined
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
  /** Planning stops (the promise rejects) once it is aborted. */
  signal?: AbortSignal | undefined
}

export interface JudgePlan {
  /** The items the run grades, those the cache answers first. */
  toGrade: PlannedTask[]
  estimate: JudgeEstimate
}

/** Items rendered and hashed between two turns of the event loop, and at most this many characters of prompts. */
export const PLAN_CHUNK_ITEMS = 200
const PLAN_CHUNK_CHARS = 500_000

const pairKey = (query: string, item: string) => `${query}\u0000${item}`

/** How a plan renders an item's prompt: the judge, its scale and the examples of the item's query. */
class PromptRenderer {
  constructor(
    private readonly judge: Judge,
    private readonly scale: Scale,
    private readonly examples: ((queryId: string) => readonly FewShotExample[]) | undefined,
  ) {}

  render(task: JudgeTask): string {
    return renderJudgePrompt(this.judge, this.scale, task.queryText, { item: task.item, fields: task.fields }, this.examples?.(task.query) ?? [])
  }
}

/** A planned item: what the run needs of it, its prompt rendered again when read. */
class PlannedItem implements PlannedTask {
  cached: { grade: number; explanation: string } | null = null

  constructor(
    private readonly renderer: PromptRenderer,
    readonly task: JudgeTask,
    readonly promptDigest: string,
    readonly key: string,
    readonly state: TaskState,
    readonly inputTokens: number,
  ) {}

  get prompt(): string {
    return this.renderer.render(this.task)
  }
}

/** Whether a grade is one of the scale's. */
export function onScale(scale: Scale, grade: number): boolean {
  return scale.some((step) => step.grade === grade)
}

/** The estimate of what is planned: a call per item the cache does not answer. */
export function estimateOf(toGrade: readonly PlannedTask[], counts: { current: number; stale: number }): JudgeEstimate {
  let calls = 0
  let cached = 0
  let inputTokens = 0
  for (const planned of toGrade) {
    if (planned.cached) cached++
    else {
      calls++
      inputTokens += planned.inputTokens ?? estimateTokens(planned.prompt)
    }
  }
  return { calls, inputTokens, outputTokens: calls * ESTIMATED_OUTPUT_TOKENS, cached, current: counts.current, stale: counts.stale, text: estimateText(calls, inputTokens) }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

export async function planJudging(input: PlanInput): Promise<JudgePlan> {
  const { judge, scale, scope, signal } = input
  const baseUrl = input.baseUrl ?? judge.baseUrl
  const rater = judgeRater(judge)
  const renderer = new PromptRenderer(judge, scale, input.examples)
  const digests = new Map<string, string | undefined>()
  for (const judgment of input.existing) if (judgment.rater === rater) digests.set(pairKey(judgment.query, judgment.item), judgment.promptDigest)
  let current = 0
  let stale = 0
  const chosen: PlannedItem[] = []
  const seen = new Set<string>()
  let next = 0
  while (next < input.tasks.length) {
    signal?.throwIfAborted()
    const start = chosen.length
    let chars = 0
    for (let n = 0; n < PLAN_CHUNK_ITEMS && chars < PLAN_CHUNK_CHARS && next < input.tasks.length; n++) {
      const task = input.tasks[next++]!
      const pair = pairKey(task.query, task.item)
      // An item a query lists twice (or a queue names twice) is judged once.
      if (seen.has(pair)) continue
      seen.add(pair)
      const prompt = renderer.render(task)
      chars += prompt.length
      const digest = promptDigest(judge, prompt)
      const graded = digests.has(pair)
      const state: TaskState = !graded ? 'new' : digests.get(pair) === digest ? 'current' : 'stale'
      if (state === 'current') current++
      if (state === 'stale') stale++
      const wanted = state === 'new' || scope === 'all' || (state === 'stale' && scope === 'stale')
      if (wanted) chosen.push(new PlannedItem(renderer, task, digest, cacheKey(baseUrl, scale, digest), state, estimateTokens(prompt)))
    }
    if (input.cache) {
      const cache = input.cache
      // This chunk's lookups at once (the store's thread answers them in order, with no round trip's wait between each), a chunk at a time.
      const fresh = chosen.slice(start)
      const answers = await Promise.all(fresh.map((planned) => cache.get(planned.key)))
      // An answer off the scale (given for a set of another scale) is no grade: the item is asked again.
      answers.forEach((answer, index) => (fresh[index]!.cached = answer && onScale(scale, answer.grade) ? answer : null))
    }
    await nextTurn()
  }
  signal?.throwIfAborted()
  // The cache's answers first: they cost nothing, and a budget then goes to the items that need a call.
  const toGrade = [...chosen.filter((planned) => planned.cached), ...chosen.filter((planned) => !planned.cached)]
  return { toGrade, estimate: estimateOf(toGrade, { current, stale }) }
}
