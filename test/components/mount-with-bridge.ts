import { afterEach } from 'vitest'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import type { ExplorerBridge } from '../../src/shared/ipc/contract'
import { answerAsDemo, fakeBridge, type FakeBridge } from '../renderer/fake-bridge'

/**
 * The mount prelude of a component test file. The window's client takes
 * `window.explorer` when its module first loads, so a file keeps one bridge,
 * puts it in place before it imports the component (dynamically), and takes
 * it away with the mounted window after each test.
 */

/** Takes the bridge and the mounted window away after each test, then runs `reset` (a file's own records). */
export function clearWindowAfterEach(reset?: () => void): void {
  afterEach(() => {
    delete window.explorer
    document.body.replaceChildren()
    reset?.()
  })
}

/** The fake bridge of one component test file, cleared away after each test. */
export function bridgeForFile(): FakeBridge {
  clearWindowAfterEach()
  return fakeBridge()
}

/**
 * Answers as an app on the Demo, plus `answers` (channel → data), puts the
 * fake in place as `window.explorer` and gives the fresh pinia to mount with.
 */
export function demoWindow(fake: FakeBridge, answers: Record<string, unknown> = {}): Pinia {
  answerAsDemo(fake)
  Object.assign(fake.answers, answers)
  window.explorer = fake.bridge
  return createPinia()
}

/** What the Experiments view's stores ask for first: no experiments and no evaluations kept. */
export const NOTHING_KEPT = { 'experiments:list': [], 'eval:list': [] }

/** A bridge that records what is sent and answers each channel from `answers` (null for the others). */
export function recordingBridge(answers: Record<string, unknown>): { bridge: ExplorerBridge; sent: { channel: string; request: unknown }[] } {
  const sent: { channel: string; request: unknown }[] = []
  const bridge: ExplorerBridge = {
    async invoke(channel, request) {
      sent.push({ channel, request })
      return { ok: true, data: answers[channel] ?? null } as never
    },
  }
  return { bridge, sent }
}

/** Puts `bridge` in place as `window.explorer` and gives a fresh pinia, made the active one for stores used outside a component. */
export function activeWindow(bridge: ExplorerBridge): Pinia {
  window.explorer = bridge
  const pinia = createPinia()
  setActivePinia(pinia)
  return pinia
}
