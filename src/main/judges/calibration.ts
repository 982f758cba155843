import type { ExperimentOptions } from '../../shared/experiments/experiment'
import { ExplorerError } from '../../shared/ipc/errors'
import type { JudgeCalibration, VerdictHold } from '../../shared/ipc/judge-contract'
import type { JudgeNextScoring } from '../../shared/relevance/judge-next'
import { judgeRater } from '../../shared/relevance/llm-judge'
import type { QuerySet } from '../../shared/relevance/query-set'
import { requireSet, setsOf } from '../../shared/relevance/set-edits'
import type { Workspace } from '../../shared/workspace/workspace-file'
import { judgmentColumns, transferables, type JudgmentColumns } from '../evaluation/agreement-protocol'
import type { EvaluationStore } from '../evaluation/evaluation-store'
import { judgeNextDepth, scoringOf, sendRankings } from '../evaluation/judge-next-thread'
import type { JudgeNextPart } from '../evaluation/judge-next-protocol'
import type { ExperimentStore } from '../experiments/experiment-store'
import { answerInThread } from '../jobs/worker-entry'
import type { WorkspaceSession } from '../workspaces/workspace-session'

/**
 * What the `judges:calibration` and `experiments:verdict` handlers call: a
 * judge's calibration against a set's people (judge-calibration.ts) and
 * whether a kept experiment's verdict holds with people's grades, the
 * judge's and both (verdict-hold.ts), each worked out on a thread of its own
 * started for the one request (calibration-worker.ts), as the agreement
 * figures and What to judge next are: at 200,000 judgments, or 1,000
 * queries on two sides tested three times, the window's other calls would
 * otherwise wait behind them.
 */

/** The built entry (electron.vite.config.ts: `judge-calibration`). */
const BUILT_ENTRY = 'judge-calibration.js'
const THREAD = { caller: __filename, source: 'calibration-worker.ts', built: BUILT_ENTRY, resourceLimits: { maxOldGenerationSizeMb: 1024 } }

/** What main sends the thread: the set's judgments as columns (moved, not cloned object by object; agreement-protocol.ts). */
export type CalibrationRequest =
  | {
      kind: 'calibration'
      judge: string
      set: { judgments: JudgmentColumns; scale: QuerySet['scale']; raters: QuerySet['raters']; queries: QuerySet['queries']; settings: QuerySet['settings'] }
    }
  | {
      kind: 'verdict'
      judge: string
      /** How many sides the parts (JudgeNextPart, a page of a side's rankings each) are of, the baseline first. */
      sides: number
      set: { judgments: JudgmentColumns; scale: QuerySet['scale']; raters: QuerySet['raters'] }
      scoring: JudgeNextScoring
      options: ExperimentOptions
    }

/**
 * The judge's rater name (`llm:NAME`), for a judge the workspace defines or
 * one whose grades the set still holds (a judge deleted after it graded).
 */
function raterOf(workspace: Pick<Workspace, 'judges'>, set: QuerySet, name: string): string {
  const rater = judgeRater({ name })
  if ((workspace.judges ?? []).some((judge) => judge.name === name) || set.judgments.some((judgment) => judgment.rater === rater)) return rater
  throw new ExplorerError('not_found', `There is no judge named "${name.slice(0, 200)}" in this workspace, and the set "${set.name.slice(0, 200)}" holds no grade by ${rater.slice(0, 204)}.`)
}

/**
 * `judges:calibration`: the judge's kappa, alpha, agreement, confusion
 * matrix and differences against the people of the set as it is now. The
 * judgments cross without their notes; the explanations of the (at most
 * 200) items listed are added back here.
 */
export async function calibrationOf(session: WorkspaceSession, setName: string, judgeName: string): Promise<JudgeCalibration> {
  const workspace = (await session.testContext()).workspace
  const set = requireSet(workspace, setName)
  const judge = raterOf(workspace, set, judgeName)
  const judgments = judgmentColumns(set.judgments)
  const request: CalibrationRequest = { kind: 'calibration', judge, set: { judgments, scale: set.scale, raters: set.raters, queries: set.queries, settings: set.settings } }
  const found = await answerInThread<JudgeCalibration>({ ...THREAD, what: "The judge's calibration" }, request, { transfer: transferables(judgments) })
  if (found.differences.length === 0) return found
  const listed = new Map(found.differences.map((row) => [`${row.query}\u0000${row.item}`, row]))
  for (const judgment of set.judgments) {
    if (judgment.rater !== judge) continue
    const row = listed.get(`${judgment.query}\u0000${judgment.item}`)
    if (row) row.explanation = judgment.explanation ?? null
  }
  return found
}

export interface VerdictDeps {
  session: WorkspaceSession
  /** The kept evaluations (each side's rankings) and experiments, as the experiment handlers have them. */
  evaluations: EvaluationStore
  experiments: ExperimentStore
}

/**
 * `experiments:verdict`: a kept experiment's comparisons worked out again
 * from its sides' kept rankings with people's grades only, the judge's only
 * and both, the set as it is now (its judgments and settings, as
 * `experiments:judge-next` reads them), with the experiment's own alpha.
 */
export async function verdictOf(experimentId: string, judgeName: string, deps: VerdictDeps): Promise<VerdictHold> {
  const record = await deps.experiments.get(experimentId)
  if (!record) throw new ExplorerError('not_found', `There is no kept experiment with the id "${experimentId.slice(0, 80)}".`)
  const workspace = (await deps.session.testContext()).workspace
  const set = setsOf(workspace).find((each) => each.name === record.set)
  if (!set) throw new ExplorerError('not_found', `The set "${record.set.slice(0, 200)}" this experiment ran on is no longer in the workspace: there are no judgments to weigh its deltas with.`)
  const judge = raterOf(workspace, set, judgeName)
  const scoring = scoringOf(record.stats.metrics, set, record.judgeDepth)
  const depth = judgeNextDepth(scoring)
  const judgments = judgmentColumns(set.judgments)
  const request: CalibrationRequest = {
    kind: 'verdict',
    judge,
    sides: record.sides.length,
    set: { judgments, scale: set.scale, raters: set.raters },
    scoring,
    options: { alpha: record.stats.alpha },
  }
  // Each side's rankings a page at a time, cut to what the figures read (as What to judge next sends them).
  return answerInThread<VerdictHold>({ ...THREAD, what: 'Does the verdict hold' }, request, {
    transfer: transferables(judgments),
    parts: async (send: (part: JudgeNextPart) => void) => {
      for (const [side, { evaluationId }] of record.sides.entries()) await sendRankings(deps.evaluations, evaluationId, side, send, { depth, judgeDepth: record.judgeDepth })
    },
  })
}
