import type { EvalRunStatus } from '../../shared/ipc/contract'
import type { Evaluation } from '../../shared/relevance/evaluation'
import { JobTable, stopJob } from '../jobs/job-table'
import type { Logger } from '../logging/logger'
import type { EvaluationStore } from './evaluation-store'

/** Evaluations at once: each keeps a few requests going, so more would only queue at the service (and its quota). */
export const MAX_RUNNING_EVALUATIONS = 2
const FINISHED_KEPT_MS = 10 * 60_000

class EvaluationRun {
  state: EvalRunStatus['state'] = 'running'
  done = 0
  failed = 0
  readonly started = performance.now()
  ended: number | null = null
  evaluationId: string | null = null
  message: string | null = null
  readonly controller = new AbortController()
  finished: Promise<void> = Promise.resolve()

  constructor(
    readonly runId: string,
    readonly set: string,
    readonly targetText: string,
    readonly total: number,
  ) {}

  get running(): boolean {
    return this.state === 'running'
  }

  status(): EvalRunStatus {
    const { runId, state, set, targetText, total, done, failed, evaluationId, message } = this
    return { runId, state, set, targetText, total, done, failed, durationMs: (this.ended ?? performance.now()) - this.started, evaluationId, message }
  }
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
 * cancellable, and kept (EvaluationStore) when they end, cancelled or not:
 * the queries that ran are worth looking at.
 */
export class EvaluationRuns {
  private readonly runs = new JobTable<EvaluationRun>({
    maxRunning: MAX_RUNNING_EVALUATIONS,
    keptMs: FINISHED_KEPT_MS,
    maxFinishedKept: 20,
    notFound: (id, minutes) => `There is no evaluation run with the id "${id}" (a finished run is forgotten after ${minutes} minutes; kept evaluations are in eval:list).`,
    full: (max) => `${max} evaluations are running already: wait for one to finish, or cancel one.`,
    busy: (id) => `runId: an evaluation with the id "${id}" is running already.`,
  })

  constructor(
    private readonly store: EvaluationStore,
    private readonly log: Logger,
  ) {}

  start({ runId, set, targetText, total, work }: EvaluationStart): EvalRunStatus {
    const run = new EvaluationRun(runId, set, targetText, total)
    this.runs.admit(runId, run)
    run.finished = work(run.controller.signal, (failed) => {
      run.done++
      if (failed) run.failed++
    })
      .then(async (evaluation) => {
        const kept = await this.store.add(scrubbedEvaluation(evaluation, this.log.scrub))
        run.evaluationId = kept.id
        this.end(run, evaluation.state)
      })
      .catch((error: unknown) => {
        this.log.error(`evaluation ${runId}: failed`, error)
        run.message = `The evaluation failed inside the app: ${this.log.scrub((error as Error).message ?? String(error))}`
        this.end(run, 'failed')
      })
    return run.status()
  }

  status(runId: string): EvalRunStatus {
    return this.runs.get(runId).status()
  }

  /** Stops the run: requests under way are cancelled; what ran is kept. Replies once it has stopped. */
  async cancel(runId: string): Promise<EvalRunStatus> {
    const run = this.runs.get(runId)
    await stopJob(run)
    return run.status()
  }

  async close(): Promise<void> {
    await this.runs.close(stopJob)
  }

  private end(run: EvaluationRun, state: EvalRunStatus['state']): void {
    run.state = state
    run.ended = performance.now()
    this.log.info(`evaluation ${run.runId}: ${state}, ${run.done} of ${run.total} queries on ${run.targetText}`)
    this.runs.finished(run.runId, run)
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
