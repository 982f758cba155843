import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { ratersOf } from '../../src/shared/relevance/raters'
import { setAgreement } from '../../src/shared/relevance/set-agreement'
import { setSummary } from '../../src/shared/relevance/set-summary'

/**
 * A set judged by three raters, for the Agreement part's component tests,
 * and main's answer to `sets:agreement` on it: the figures as main works
 * them out (set-agreement.ts), not written by hand.
 */

const j = (query: string, item: string, rater: string, grade: number) => ({ query, item, rater, grade })

export const THREE_RATERS: QuerySet = {
  name: 'World cities',
  query: 'City search',
  raters: [{ name: 'cy', kind: 'import' }],
  queries: [{ id: 'q01', text: 'paris' }, { id: 'q02', text: 'rome' }, { id: 'q03', text: 'lima' }],
  judgments: [
    // paris: p1 0/3/3 (three steps apart), p2 alike, p3 one step. rome: r1 0/2/1 (two steps), r2 alike. lima: alike.
    j('q01', 'p1', 'ana', 0), j('q01', 'p1', 'ben', 3), j('q01', 'p1', 'cy', 3),
    j('q01', 'p2', 'ana', 1), j('q01', 'p2', 'ben', 1), j('q01', 'p2', 'cy', 1),
    j('q01', 'p3', 'ana', 2), j('q01', 'p3', 'ben', 2), j('q01', 'p3', 'cy', 3),
    j('q02', 'r1', 'ana', 0), j('q02', 'r1', 'ben', 2), j('q02', 'r1', 'cy', 1),
    j('q02', 'r2', 'ana', 3), j('q02', 'r2', 'ben', 3), j('q02', 'r2', 'cy', 3),
    j('q03', 'l1', 'ana', 2), j('q03', 'l1', 'ben', 2), j('q03', 'l1', 'cy', 2),
    j('q03', 'l2', 'ana', 0), j('q03', 'l2', 'ben', 0), j('q03', 'l2', 'cy', 1),
  ],
}

/** What main answers `sets:agreement` with on `set`, as the window asks (settled disagreements included). */
export function agreementOf(set: QuerySet, steps = 2) {
  return setAgreement({ scale: [0, 1, 2, 3], queries: set.queries, judgments: set.judgments, raters: ratersOf(set), steps, settled: true })
}

/** The workspace view listing `sets`. */
export function viewOf(sets: QuerySet[]): WorkspaceView {
  return { name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [], sets: sets.map(setSummary), queries: [], bindings: [] }
}
