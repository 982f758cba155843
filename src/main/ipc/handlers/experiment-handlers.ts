import { randomUUID } from 'node:crypto'
import type { ExperimentRecord } from '../../../shared/experiments/experiment-record'
import type { ExperimentChannel } from '../../../shared/ipc/experiment-contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import { gradesOfSet } from '../../../shared/relevance/grade-aggregate'
import { scaleOf, settingsOf } from '../../../shared/relevance/query-set'
import { setsOf } from '../../../shared/relevance/set-edits'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import { scrubbedEvaluation } from '../../evaluation/evaluation-runs'
import type { EvaluationStore } from '../../evaluation/evaluation-store'
import { experimentJudgeNext } from '../../evaluation/judge-next-thread'
import { setRunInputs, setTarget } from '../../evaluation/set-inputs'
import type { ExperimentRuns } from '../../experiments/experiment-runs'
import type { ExperimentStore } from '../../experiments/experiment-store'
import { runExperiment, sideLetter } from '../../experiments/run-experiment'
import { statsInThread } from '../../experiments/stats-thread'
import type { QueryRunner } from '../../http/query-runner'
import type { Logger } from '../../logging/logger'
import type { WorkspaceSession } from '../../workspaces/workspace-session'
import type { DomainHandlers } from '../handler-table'

export interface ExperimentHandlerDeps {
  session: WorkspaceSession
  registry: ConnectionRegistry
  runner: QueryRunner
  runs: ExperimentRuns
  evaluations: EvaluationStore
  experiments: ExperimentStore
  log: Logger
}

/** Experiments: a set on several targets compared, each side's evaluation kept on its own, the comparison kept too. */
export function experimentHandlers({ session, registry, runner, runs, evaluations, experiments, log }: ExperimentHandlerDeps): DomainHandlers<ExperimentChannel> {
  const kept = async (id: string) => {
    const found = await experiments.get(id)
    if (!found) throw new ExplorerError('not_found', `There is no kept experiment with the id "${id.slice(0, 80)}".`)
    return found
  }
  return {
    'experiments:start': async ({ runId, set: name, sides: specs, depth, metrics, attribution, alpha }) => {
      const context = await session.testContext()
      const inputs = setRunInputs(context, name, metrics)
      // Each side is checked before anything runs: an unknown connection is refused at once.
      const sides = specs.map((spec) => ({ spec, ...setTarget(registry, context, inputs, spec) }))
      const workspaceName = (await session.current()).workspace.name
      const settings = settingsOf(inputs.set)
      return runs.start({
        runId,
        set: name,
        work: async (signal, onProgress) => {
          const at = new Date()
          const started = performance.now()
          const run = await runExperiment({
            runner,
            set: inputs.set,
            template: inputs.template,
            workspaceName,
            sides,
            metrics: inputs.metrics,
            settings,
            depth,
            attribution: attribution ?? false,
            signal,
            runId: `experiment:${runId}`,
            onProgress,
          })
          // The service's words in failed queries are scrubbed once, here: what is kept and the statistics' list of failures both come from these.
          const sideEvaluations = run.evaluations.map((evaluation) => scrubbedEvaluation(evaluation, log.scrub))
          const stepEvaluations = run.attribution.map((step) => scrubbedEvaluation(step.evaluation, log.scrub))
          // Each evaluation that finished is kept, cancelled or not: the Evaluation view and the trend list it.
          const kept = await Promise.all([...sideEvaluations, ...stepEvaluations].map((evaluation) => evaluations.add(evaluation)))
          if (signal.aborted) throw new ExplorerError('cancelled', 'The experiment was cancelled.')
          // Progress counts queries, as runExperiment's did: every query of the set, once for each side and step.
          const total = inputs.set.queries.length * (run.evaluations.length + run.attribution.length)
          onProgress({ phase: 'statistics', done: total, total })
          const [baseline, ...others] = sideEvaluations.map((evaluation, index) => ({
            label: `${sideLetter(index)}: ${evaluation.targetText}`,
            rankings: evaluation.rankings,
            scored: evaluation.scored,
          }))
          const grades = [...gradesOfSet(inputs.set, run.evaluations[0]!.settings.aggregate)].map(([query, items]) => [query, [...items]] as [string, [string, number][]])
          const stats = await statsInThread({ baseline: baseline!, others, grades, judgeDepth: run.evaluations[0]!.judgeDepth, options: alpha !== undefined ? { alpha } : {} }, signal)
          const record: ExperimentRecord = {
            id: randomUUID(),
            set: name,
            workspace: workspaceName,
            at: at.toISOString(),
            depth,
            judgeDepth: run.evaluations[0]!.judgeDepth,
            settings,
            scale: scaleOf(inputs.set),
            sides: run.evaluations.map((evaluation, index) => ({ label: evaluation.targetText, target: specs[index] ?? null, evaluationId: kept[index]!.id, means: evaluation.scored.means })),
            attribution: run.attribution.map((step, index) => ({ label: step.label, steps: step.steps, evaluationId: kept[run.evaluations.length + index]!.id, means: step.evaluation.scored.means })),
            stats,
            state: 'done',
            durationMs: performance.now() - started,
            reused: run.reused,
          }
          onProgress({ phase: 'done', done: total, total })
          await experiments.add(record)
          return record
        },
      })
    },
    'experiments:status': async ({ runId }) => runs.status(runId),
    'experiments:cancel': ({ runId }) => runs.cancel(runId),
    'experiments:list': ({ set }) => experiments.list(set),
    'experiments:get': async ({ id }) => kept(id),
    'experiments:judge-next': async ({ id, limit }) => {
      const record = await kept(id)
      const set = setsOf((await session.testContext()).workspace).find((each) => each.name === record.set)
      if (!set) throw new ExplorerError('not_found', `The set "${record.set.slice(0, 200)}" this experiment ran on is no longer in the workspace: there are no judgments to weigh its deltas with.`)
      // In a worker thread: 0.5–2 s at 1,000 queries on two sides (scoring, randomization tests).
      return experimentJudgeNext(evaluations, record, set, limit)
    },
  }
}
