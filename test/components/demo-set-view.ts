import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
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
