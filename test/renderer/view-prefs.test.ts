import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { fakeBridge, installBridge, settle } from './fake-bridge'

/** This origin's storage, as a page of the browser host has it (Node has none): what an earlier start on the same port left. */
const stored = new Map<string, string>([
  ['query-explorer.view-prefs', JSON.stringify({ view: 'history', folds: { insights: { wide: true }, tests: { tall: false } } })],
])
;(globalThis as { localStorage?: unknown }).localStorage = {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, value),
}

const fake = fakeBridge()
installBridge(fake)
fake.hold('view-prefs:get')
const { useRememberedFold } = await import('../../src/renderer/composables/useRememberedFold')
const { useWorkbenchStore } = await import('../../src/renderer/stores/workbench')

const sets = () => fake.calls.filter((call) => call.channel === 'view-prefs:set').map((call) => call.request)

describe('view preferences in the window', () => {
  it('shows the local guess until main answers, then main’s copy wins; changes go to main', async () => {
    setActivePinia(createPinia())
    const insights = useRememberedFold({ query: '(max-width: 1100px)', storageKey: 'query-explorer.insights', modes: ['narrow', 'wide'] })
    const tests = useRememberedFold({ query: '(max-height: 700px)', storageKey: 'query-explorer.tests', modes: ['short', 'tall'] })
    const workbench = useWorkbenchStore()
    workbench.restore(['results', 'compare', 'tests', 'history'])
    await settle()
    // Before main answers: this origin's guess.
    expect(insights.open.value).toBe(true)
    expect(tests.open.value).toBe(false)
    expect(workbench.view).toBe('results')
    expect(fake.held.map((call) => call.channel)).toEqual(['view-prefs:get'])

    // Main kept the panel folded and the Tests view: they win over the guess.
    fake.held[0]!.answer({ view: 'tests', folds: { insights: { wide: false } } })
    await settle()
    await settle()
    expect(insights.open.value).toBe(false)
    expect(workbench.view).toBe('tests')
    // What only this origin knew is sent up, so a later start (on another port) has it too.
    expect(sets()).toEqual([{ folds: { tests: { tall: false } } }])
    expect(JSON.parse(stored.get('query-explorer.view-prefs')!)).toEqual({ view: 'tests', folds: { insights: { wide: false }, tests: { tall: false } } })

    // The user's changes: applied at once, kept here and sent to main.
    insights.toggle()
    expect(insights.open.value).toBe(true)
    workbench.select('history')
    expect(workbench.view).toBe('history')
    await settle()
    expect(sets().slice(1)).toEqual([{ folds: { insights: { wide: true } } }, { view: 'history' }])
    expect(JSON.parse(stored.get('query-explorer.view-prefs')!)).toMatchObject({ view: 'history', folds: { insights: { wide: true } } })
  })

  it('ignores a view the window no longer has', async () => {
    setActivePinia(createPinia())
    const workbench = useWorkbenchStore()
    workbench.select('gone-view')
    workbench.restore(['results', 'tests'])
    await settle()
    // select() shows it at once; a fresh window restoring it does not.
    setActivePinia(createPinia())
    const fresh = useWorkbenchStore()
    fresh.restore(['results', 'tests'])
    await settle()
    expect(fresh.view).toBe('results')
  })
})
