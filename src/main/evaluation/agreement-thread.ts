import { ExplorerError } from '../../shared/ipc/errors'
import { scaleOf, type QuerySet, type RatedJudgment } from '../../shared/relevance/query-set'
import { ratersOf } from '../../shared/relevance/raters'
import type { SetAgreement, SetAgreementInput } from '../../shared/relevance/set-agreement'
import { answerInThread } from '../jobs/worker-entry'
import { judgmentColumns, transferables } from './agreement-protocol'

/** The built entry (electron.vite.config.ts: `rater-agreement`). */
const BUILT_ENTRY = 'rater-agreement.js'

/**
 * A set's agreement figures and disagreements, computed on a thread of its
 * own started for this one request (as an experiment's statistics are,
 * stats-thread.ts): main only lays the judgments out as columns (~20 ms at
 * 200,000), the thread does the rest.
 */
export function agreementInThread(input: Omit<SetAgreementInput, 'judgments'> & { judgments: readonly RatedJudgment[] }): Promise<SetAgreement> {
  const judgments = judgmentColumns(input.judgments)
  return answerInThread<SetAgreement>(
    { caller: __filename, source: 'agreement-worker.ts', built: BUILT_ENTRY, what: 'The agreement figures', resourceLimits: { maxOldGenerationSizeMb: 1024 } },
    { ...input, judgments },
    { transfer: transferables(judgments) },
  )
}

/**
 * `sets:agreement` on a set: its raters (all but the adjudicator, or those
 * named: a name the set has no rater of is refused, naming it), their
 * figures and the disagreements of `steps` or more places.
 */
export async function agreementOfSet(set: QuerySet, options: { raters?: readonly string[] | undefined; steps?: number | undefined; settled?: boolean | undefined }): Promise<SetAgreement> {
  const raters = ratersOf(set)
  const unknown = options.raters?.find((name) => !raters.some((rater) => rater.name === name && rater.kind !== 'adjudication'))
  if (unknown !== undefined) {
    throw new ExplorerError('validation', `raters: "${unknown.slice(0, 200)}" is no rater of the set "${set.name}" (its raters: ${raters.filter((rater) => rater.kind !== 'adjudication').map((rater) => rater.name).join(', ') || 'none'}).`)
  }
  const scale = scaleOf(set).map((step) => step.grade)
  if (options.steps !== undefined && options.steps > scale.length - 1) {
    throw new ExplorerError('validation', `steps: ${options.steps} is more than the scale has (${scale.length} grades, so ${scale.length - 1} steps at most).`)
  }
  return agreementInThread({
    scale,
    queries: set.queries,
    judgments: set.judgments,
    raters,
    only: options.raters,
    steps: options.steps,
    settled: options.settled,
  })
}
