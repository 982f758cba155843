import type { EvalRunStatus } from '../../shared/ipc/contract'
import type { Evaluation } from '../../shared/relevance/evaluation'
import { JobsOfKind } from '../jobs/background-jobs'
import type { Logger } from '../logging/logger'
import type { EvaluationStore } from './evaluation-store'

/** Evaluations at once: each keeps a few requests going, so more would only queue at the service (and its quota). */
export const MAX_RUNNING_EVALUATIONS = 2
const FINISHED_KEPT_MS = 10 * 60_000

/** What an evaluation tracks while it runs. */
interface EvaluationProgress {
  set: string
  targetText: string
  total: number
  done: number
  failed: number
  /** The kept evaluation, once it has ended (`eval:get`). */
  evaluationId: string | null
}

export interface EvaluationStart {
  runId: string
  set: string
  targetText: string
  total: number
  /** Runs the evaluation: reports each query as it ends, stops on the signal. */
  work: (signal: AbortSignal, onQuery: (failed: boolean) => void) => Promise<Evaluation>
}

/**
 * The evaluations of this launch, by the id the window chose: started at
 * once, run in the background, polled for progress (`eval:status`),
 * cancellable (what ran is kept), and kept (EvaluationStore) when they end,
 * cancelled or not: the queries that ran are worth looking at.
 */
export class EvaluationRuns extends JobsOfKind<EvaluationProgress, EvalRunStatus> {
  constructor(
    private readonly store: EvaluationStore,
    private readonly log: Logger,
  ) {
    super(
      {
        noun: 'evaluation',
        maxRunning: MAX_RUNNING_EVALUATIONS,
        keptMs: FINISHED_KEPT_MS,
        maxFinishedKept: 20,
        keptElsewhere: 'kept evaluations are in eval:list',
        status: (job) => ({ ...job.statusFields(), ...job.progress }),
        summary: ({ progress }) => `${progress.done} of ${progress.total} queries on ${progress.targetText}`,
      },
      log,
    )
  }

  start({ runId, set, targetText, total, work }: EvaluationStart): EvalRunStatus {
    return this.jobs.start(runId, { set, targetText, total, done: 0, failed: 0, evaluationId: null }, async (job) => {
      const evaluation = await work(job.signal, (failed) => {
        job.progress.done++
        if (failed) job.progress.failed++
      })
      job.progress.evaluationId = (await this.store.add(scrubbedEvaluation(evaluation, this.log.scrub))).id
      return evaluation.state
    })
  }
}

/**
 * The service's words in a failed query's error passed through the log's
 * scrubber, as every error text that leaves main is: the runner already
 * strips the token from answers, and this is the second line of defence.
 */
export function scrubbedEvaluation(evaluation: Evaluation, scrub: (text: string) => string): Evaluation {
  const clean = <T extends { error: string | null }>(entry: T): T => (entry.error === null ? entry : { ...entry, error: scrub(entry.error) })
  return { ...evaluation, rankings: evaluation.rankings.map(clean), scored: { ...evaluation.scored, queries: evaluation.scored.queries.map(clean) } }
}
