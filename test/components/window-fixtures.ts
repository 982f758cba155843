import type { AppInfo, ConnectionView } from '../../src/shared/ipc/contract'

/** What the component tests' stand-in bridge answers for the app and the demo connection, as main answers a window at start. */

export const DEMO_VIEW: ConnectionView = {
  id: 'c1', name: 'Demo', authUrl: 'http://127.0.0.1:1/auth', queryUrl: 'http://127.0.0.1:1/query', workspace: 'world', api: 'places',
  clientId: 'demo', builtIn: true, hasSecret: true, tokenRequestsLastHour: 0,
}

export const TEST_INFO: AppInfo = { version: 'test', host: 'browser', keychain: { kind: 'os', detail: '' }, demo: null, lastConnectionId: 'c1', notices: [] }
