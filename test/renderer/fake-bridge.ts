import type { ExplorerBridge, IpcResult } from '../../src/shared/ipc/contract'

/** A call the fake bridge holds until the test answers it. */
export interface HeldCall {
  channel: string
  request: Record<string, unknown>
  answer(data: unknown): void
  refuse(error: { code: string; message: string }): void
}

/**
 * The main process as a window's stores see it (`window.explorer`): each
 * channel answers with `answers[channel]`, except the held channels, whose
 * calls wait in `held` until the test answers them, in any order.
 */
export interface FakeBridge {
  bridge: ExplorerBridge
  answers: Record<string, unknown>
  calls: { channel: string; request: Record<string, unknown> }[]
  held: HeldCall[]
  hold(channel: string): void
  clear(): void
}

export function fakeBridge(): FakeBridge {
  const holding = new Set<string>()
  const fake: FakeBridge = {
    answers: {},
    calls: [],
    held: [],
    hold: (channel) => void holding.add(channel),
    clear() {
      holding.clear()
      fake.answers = {}
      fake.calls = []
      fake.held = []
    },
    bridge: {
      invoke(channel, request) {
        const entry = { channel, request: request as Record<string, unknown> }
        fake.calls.push(entry)
        if (!holding.has(channel)) return Promise.resolve({ ok: true, data: fake.answers[channel] } as IpcResult<never>)
        return new Promise((resolve) => {
          fake.held.push({
            ...entry,
            answer: (data) => resolve({ ok: true, data } as IpcResult<never>),
            refuse: (error) => resolve({ ok: false, error } as IpcResult<never>),
          })
        })
      },
    },
  }
  return fake
}

/**
 * The window's client picks its bridge when it loads: this puts the fake in
 * place as `window.explorer` first (Node has no window), once per test file.
 */
export function installBridge(fake: FakeBridge): void {
  ;(globalThis as { window?: unknown }).window = { explorer: fake.bridge }
}

/** Lets pending promise callbacks (the stores' awaits) run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** The app's Demo as the connections store lists it, and app:info on a launch that reopens on it. */
export const DEMO_CONNECTION = {
  id: 'c1', name: 'Demo', authUrl: 'http://127.0.0.1:4123/auth', queryUrl: 'http://127.0.0.1:4123/query', workspace: 'world', api: 'places',
  clientId: '', builtIn: true, hasSecret: false, tokenRequestsLastHour: 0,
}
export const DEMO_INFO = { version: 'test', host: 'browser', keychain: { kind: 'os', detail: '' }, demo: null, lastConnectionId: 'c1', notices: [] }

/** A fresh bridge state answering as an app on the Demo, with no API description. */
export function answerAsDemo(fake: FakeBridge): void {
  fake.clear()
  fake.answers = { 'app:info': DEMO_INFO, 'connections:list': [DEMO_CONNECTION], 'api:describe': null, 'api:learn': { description: null, absence: { reason: 'not-found', status: 404 } }, 'view-prefs:get': {}, 'view-prefs:set': {}, 'view-prefs:reset': {}, 'sets:rater': { name: 'r1', chosen: true } }
}
