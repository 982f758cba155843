import { disagreements, type Disagreements } from './disagreements'
import { raterAgreement, type AgreementReport } from './rater-agreement'
import type { RaterKind } from './raters'

/**
 * What the Evaluation view's Agreement part shows of a set: how far its
 * raters agree (rater-agreement.ts) and the items they differ on
 * (disagreements.ts). The adjudicator is no rater here: its grades settle
 * items, they are not a reading to agree with, so the figures leave them out
 * and the disagreements show them as the settled grade.
 */

export interface SetAgreementInput {
  /** The set's grades, lowest first. */
  scale: readonly number[]
  queries: readonly { id: string; text: string }[]
  judgments: readonly { query: string; item: string; rater: string; grade: number }[]
  /** Every rater of the set with its kind (raters.ts's ratersOf). */
  raters: readonly { name: string; kind: RaterKind }[]
  /** The raters compared (all but adjudicators when absent). */
  only?: readonly string[] | undefined
  /** Disagreements differ by at least this many places on the scale. */
  steps?: number | undefined
  /** How many disagreements at most. */
  limit?: number | undefined
  /** List settled disagreements too. */
  settled?: boolean | undefined
}

export type SetAgreement = AgreementReport & { disagreements: Disagreements }

export function setAgreement(input: SetAgreementInput): SetAgreement {
  const only = input.only ? new Set(input.only) : null
  const compared = (name: string, kind: RaterKind | undefined) => kind !== 'adjudication' && (!only || only.has(name))
  const kinds = new Map(input.raters.map((rater) => [rater.name, rater.kind]))
  const raters = input.raters.filter((rater) => compared(rater.name, rater.kind))
  const judgments = input.judgments.filter((judgment) => compared(judgment.rater, kinds.get(judgment.rater)))
  return {
    ...raterAgreement({ scale: input.scale, judgments, raters }),
    disagreements: disagreements({
      scale: input.scale,
      queries: input.queries,
      judgments: input.judgments,
      raters: input.raters,
      ...(input.only ? { only: input.only } : {}),
      ...(input.steps !== undefined ? { steps: input.steps } : {}),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.settled ? { settled: true } : {}),
    }),
  }
}
