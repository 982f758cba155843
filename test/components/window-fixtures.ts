import type { AppInfo, ConnectionView, WorkspaceView } from '../../src/shared/ipc/contract'
import type { FacetDeclaration } from '../../src/shared/query/facet-declaration'

/** What the component tests' stand-in bridge answers for the app and the demo connection, as main answers a window at start. */

export const DEMO_VIEW: ConnectionView = {
  id: 'c1', name: 'Demo', authUrl: 'http://127.0.0.1:1/auth', queryUrl: 'http://127.0.0.1:1/query', workspace: 'world', api: 'places',
  clientId: 'demo', builtIn: true, hasSecret: true, tokenRequestsLastHour: 0,
}

export const TEST_INFO: AppInfo = { version: 'test', host: 'browser', keychain: { kind: 'os', detail: '' }, demo: null, lastConnectionId: 'c1', notices: [] }

/** A connection to a real deployment (not the Demo) on films/movies. */
export const REAL_VIEW: ConnectionView = {
  id: 'c1', name: 'Real', authUrl: 'http://127.0.0.1:1/auth', queryUrl: 'http://127.0.0.1:1/query', workspace: 'films', api: 'movies',
  clientId: 'real', builtIn: false, hasSecret: true, tokenRequestsLastHour: 1,
}

/** The untitled workspace as main shows it, its file's connection `real` bound to REAL_VIEW with the `declared` facets. */
export function boundToReal(declared: FacetDeclaration[], dirty: boolean): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = REAL_VIEW
  return {
    name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty, queries: [], tests: [], sets: [],
    bindings: [{ fileConnectionId: 'real', connectionId: 'c1', how: 'same', connection: { id: 'real', ...described, ...(declared.length ? { facets: declared } : {}) } }],
  }
}

/** What main answers a window on REAL_VIEW at start: its deployment serves no API description. */
export const REAL_ANSWERS: Record<string, unknown> = {
  'app:info': TEST_INFO,
  'connections:list': [REAL_VIEW],
  'api:learn': { description: null, absence: { reason: 'not-found', status: 404 } },
  'history:list': [],
}
