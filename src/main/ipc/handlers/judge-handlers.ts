import type { JudgeChannel } from '../../../shared/ipc/judge-contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import { withJudge, withoutJudge } from '../../../shared/relevance/judge-edits'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { EvaluationStore } from '../../evaluation/evaluation-store'
import type { ExperimentStore } from '../../experiments/experiment-store'
import type { QueryRunner } from '../../http/query-runner'
import { calibrationOf, verdictOf } from '../../judges/calibration'
import type { JudgeRuns } from '../../judges/judge-jobs'
import type { JudgeKeys } from '../../judges/judge-keys'
import type { JudgeCache } from '../../judges/judge-plan'
import { judgeBaseUrlOf, judgeRunWork } from '../../judges/judge-start'
import type { WorkspaceSession } from '../../workspaces/workspace-session'
import type { DomainHandlers } from '../handler-table'

export interface JudgeHandlerDeps {
  session: WorkspaceSession
  registry: ConnectionRegistry
  runner: QueryRunner
  runs: JudgeRuns
  keys: JudgeKeys
  cache: JudgeCache
  evaluations: EvaluationStore
  experiments: ExperimentStore
}

/**
 * LLM judges: their settings (the document's), their keys (the keychain's,
 * by the origin of the judge's base URL here, as judge-keys.ts binds them),
 * the judging runs, and how far a judge agrees with people.
 */
export function judgeHandlers(deps: JudgeHandlerDeps): DomainHandlers<JudgeChannel> {
  const { session, runs, keys } = deps
  // Another document opened: the run judging the last one is cancelled (it writes nothing into the new one: rateMany checks the opening too).
  let lastRun: string | null = null
  session.onOpened(() => {
    if (lastRun !== null) void runs.cancel(lastRun).catch(() => undefined)
  })
  return {
    'judges:save': ({ judge, previousName }) => session.edit((workspace) => withJudge(workspace, judge, previousName)),
    'judges:delete': ({ name }) => session.edit((workspace) => withoutJudge(workspace, name)),
    'judges:key-status': async ({ name }) => keys.status(await judgeBaseUrlOf(deps, name)),
    'judges:set-key': async ({ name, key }) => keys.set(await judgeBaseUrlOf(deps, name), key),
    'judges:clear-key': async ({ name }) => ({ cleared: await keys.clear(await judgeBaseUrlOf(deps, name)) }),
    'judges:start': async (request) => {
      const retry = request.retryOf === undefined ? null : runs.failuresOf(request.retryOf)
      if (retry && (retry.judge !== request.judge || retry.set !== request.set)) {
        throw new ExplorerError('validation', `retryOf: the run "${request.retryOf}" judged "${retry.set}" with "${retry.judge}", not this set and judge.`)
      }
      const work = await judgeRunWork(deps, request, retry)
      const started = runs.start({ runId: request.runId, set: request.set, judge: request.judge, work })
      lastRun = request.runId
      return started
    },
    'judges:status': async ({ runId }) => runs.status(runId),
    'judges:cancel': ({ runId }) => runs.cancel(runId),
    'judges:calibration': ({ judge, set }) => calibrationOf(session, set, judge),
    'experiments:verdict': ({ id, judge }) => verdictOf(id, judge, deps),
  }
}
