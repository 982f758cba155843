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

/**
 * Pairs the window is sent at most: a set may have 1,000 raters, 499,500
 * pairs whose figures and confusion matrices would be some 180 MB to send and
 * a table no one reads. Past it, the pairs with the most items in common.
 */
export const MAX_PAIRS_SHOWN = 300

export type SetAgreement = AgreementReport & { disagreements: Disagreements; pairsLeftOut: number }

export function setAgreement(input: SetAgreementInput): SetAgreement {
  const only = input.only ? new Set(input.only) : null
  const compared = (name: string, kind: RaterKind | undefined) => kind !== 'adjudication' && (!only || only.has(name))
  const kinds = new Map(input.raters.map((rater) => [rater.name, rater.kind]))
  const raters = input.raters.filter((rater) => compared(rater.name, rater.kind))
  const judgments = input.judgments.filter((judgment) => compared(judgment.rater, kinds.get(judgment.rater)))
  const report = raterAgreement({ scale: input.scale, judgments, raters })
  const pairs = report.pairs.length <= MAX_PAIRS_SHOWN ? report.pairs : mostShared(report.pairs)
  return {
    ...report,
    pairs,
    pairsLeftOut: report.pairs.length - pairs.length,
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

/** The MAX_PAIRS_SHOWN pairs that share the most items, in the report's order (by rater). */
function mostShared<T extends { n: number }>(pairs: readonly T[]): T[] {
  const kept = new Set([...pairs.keys()].sort((x, y) => pairs[y]!.n - pairs[x]!.n || x - y).slice(0, MAX_PAIRS_SHOWN))
  return pairs.filter((_, index) => kept.has(index))
}
