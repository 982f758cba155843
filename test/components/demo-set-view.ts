import type { Pinia } from 'pinia'
import { expect } from 'vitest'
import { render } from 'vitest-browser-vue'
import { experimentSummary, type ExperimentRecord } from '../../src/shared/experiments/experiment-record'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import { TREND_EXPERIMENT } from '../fixtures/kept-trend'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'

/**
 * The workspace view of a file holding `set` and its template, "City
 * search", on the Demo (bound to the window's connection c1): what the set's
 * queries run on when Judge or Judge next asks for their results.
 */
export function demoSetView(set: QuerySet): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [], sets: [setSummary(set)],
    queries: [{
      name: 'City search', connection: 'demo', notes: '',
      request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: '{{query}}' } }], responseType: 'results', options: { count: 50 } },
    }],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } }],
  }
}

/** Two queries of "City search", the first item of paris graded by r1: what the judge-next tests ask about. */
export const TWO_QUERY_SET: QuerySet = {
  name: 'World cities',
  query: 'City search',
  queries: [{ id: 'q01', text: 'paris' }, { id: 'q02', text: 'rome' }],
  judgments: [{ query: 'q01', item: 'paris-1', rater: 'r1', grade: 3 }],
}

/** A kept experiment on that set: B (config production) against A (config default) on nDCG@10 and P@10, what the judge-next and verdict parts read. */
export const TWO_SIDE_EXPERIMENT = {
  ...TREND_EXPERIMENT,
  stats: { ...TREND_EXPERIMENT.stats, metrics: ['ndcg@10', 'p@10'], family: 2 },
  sides: [
    { label: 'Demo, config default', target: { connectionId: 'c1' }, evaluationId: 'e-a', means: {} },
    { label: 'Demo, config production', target: { connectionId: 'c1', config: 'production' }, evaluationId: 'e-b', means: {} },
  ],
} as ExperimentRecord

/** What the Experiments view asks main first with TWO_SIDE_EXPERIMENT kept: it listed and read, no evaluation kept, no probabilities. */
export const KEPT_EXPERIMENT_ANSWERS: Record<string, unknown> = {
  'eval:list': [], 'experiments:list': [{ ...experimentSummary(TWO_SIDE_EXPERIMENT), significant: 1, comparisons: 2 }], 'experiments:get': TWO_SIDE_EXPERIMENT,
  'eval:probability': { hasProbabilities: false, bands: [], cutoff: null },
}

/**
 * Mounts the Experiments view in the window `pinia` (demoWindow's, the bridge
 * in place) on `view`, and gives the part named `part` once it shows. The
 * view is imported here, after the bridge is in place (mount-with-bridge.ts).
 */
export async function mountExperimentPart(pinia: Pinia, view: WorkspaceView, part: string) {
  const [{ default: ExperimentsView }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentsView.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(view)
  const screen = await render(ExperimentsView, { global: { plugins: [pinia] } })
  const section = screen.getByRole('region', { name: part })
  await expect.element(section).toBeVisible()
  return { screen, section }
}
