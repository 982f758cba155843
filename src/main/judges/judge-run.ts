import type { Scale } from '../../shared/relevance/query-set'
import type { CallMeter } from './call-meter'
import { onScale, type JudgeCache, type JudgeTask, type PlannedTask } from './judge-plan'
import type { JudgeClient } from './provider-client'

export type { JudgeCache, JudgeTask, PlannedTask } from './judge-plan'

/**
 * Judging the planned items: the cache's answers taken first (no call),
 * then a few at a time (`concurrency` workers) through the provider's
 * client. Each grade is handed to the caller as it comes (who takes it into
 * the document as a rating, which the journal keeps), so a cancel, the
 * budget or a crash keeps everything graded before it. The budget stopping
 * the run is not a failure: the items it leaves are counted as left. The
 * work here is waiting on the network; per grade it does a constant amount
 * (its prompt rendered again as it is sent: a plan keeps none). A cached
 * answer off the scale is no grade: the item is sent as if none was cached.
 */

export interface GradedItem {
  grade: number
  explanation: string
  promptDigest: string
  /** From the cache: no call was made. */
  cached: boolean
}

export interface RunJudgingInput {
  planned: readonly PlannedTask[]
  scale: Scale
  client: JudgeClient
  meter: CallMeter
  concurrency: number
  signal: AbortSignal
  /** Where each new grade is kept, after it is taken (the next run then costs nothing). */
  cache?: JudgeCache | null | undefined
  /** Awaited: the caller writes the grade (a rating of the judge's rater). A throw fails the item with its message. */
  onGraded(task: JudgeTask, graded: GradedItem): Promise<void> | void
  onFailed(task: JudgeTask, reason: string): void
}

export interface RunJudgingResult {
  /** Graded by a call. */
  graded: number
  /** Taken from the cache. */
  cached: number
  failed: number
  stoppedByBudget: boolean
  cancelled: boolean
  /** Planned items not graded (the budget or a cancel stopped the run before them); failures are counted apart. */
  left: number
}

export async function runJudging(input: RunJudgingInput): Promise<RunJudgingResult> {
  const { planned, client, meter, signal } = input
  let graded = 0
  let cached = 0
  let failed = 0
  let stoppedByBudget = false
  let next = 0
  const stopped = () => signal.aborted || stoppedByBudget || meter.stoppedByBudget

  const take = async (each: PlannedTask, answer: { grade: number; explanation: string }, fromCache: boolean): Promise<boolean> => {
    try {
      await input.onGraded(each.task, { grade: answer.grade, explanation: answer.explanation, promptDigest: each.promptDigest, cached: fromCache })
      return true
    } catch (error) {
      failed++
      input.onFailed(each.task, error instanceof Error ? error.message : String(error))
      return false
    }
  }

  const cachedAnswer = (each: PlannedTask) => (each.cached && onScale(input.scale, each.cached.grade) ? each.cached : null)

  // The cache's answers first, in order, one at a time: no call, and each written as a grade is.
  while (next < planned.length && cachedAnswer(planned[next]!) && !signal.aborted) {
    const each = planned[next++]!
    if (await take(each, cachedAnswer(each)!, true)) cached++
  }

  const worker = async (): Promise<void> => {
    while (next < planned.length && !stopped()) {
      const each = planned[next++]!
      const answer = cachedAnswer(each)
      if (answer) {
        if (await take(each, answer, true)) cached++
        continue
      }
      const result = await client.grade(each.prompt, input.scale, signal)
      if (result.ok) {
        // Kept in the cache first: should writing the grade fail, the answer paid for is not lost.
        await input.cache?.set(each.key, { grade: result.grade, explanation: result.explanation, promptDigest: each.promptDigest }).catch(() => undefined)
        if (await take(each, result, false)) graded++
      } else if (result.budget) {
        // The meter refused the request: nothing was sent; the item is left, and no worker takes another.
        stoppedByBudget = true
      } else if (!signal.aborted) {
        failed++
        input.onFailed(each.task, result.reason)
      }
    }
  }
  const workers = Math.max(1, Math.min(input.concurrency, planned.length - next))
  if (next < planned.length) await Promise.all(Array.from({ length: workers }, worker))
  stoppedByBudget ||= meter.stoppedByBudget
  // Not taken at all, or taken and not graded: the budget refused its call, or a cancel cut it short (neither a failure).
  const left = planned.length - graded - cached - failed
  return { graded, cached, failed, stoppedByBudget, cancelled: signal.aborted, left }
}
