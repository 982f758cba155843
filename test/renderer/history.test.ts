import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { HistoryEntry } from '../../src/shared/ipc/contract'
import { answerAsDemo, fakeBridge, installBridge, settle } from './fake-bridge'

/** The History store keeps its list from the entries runs' replies bring: the list is read once, never after a run. */

const fake = fakeBridge()
installBridge(fake)
const { useHistoryStore } = await import('../../src/renderer/stores/history')

const entry = (id: string, change: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id, at: '2026-11-28T04:00:00.000Z', connectionId: 'c1', connectionName: 'Demo', api: 'places', config: 'default',
  url: `http://127.0.0.1:4123/query/world/places/search/${id}/results`, responseType: 'results', status: 200, error: null,
  total: 5, itemCount: 10, pages: 1, durationMs: 12,
  request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: id } }], responseType: 'results', options: {} },
  ...change,
})

const reads = () => fake.calls.filter((call) => call.channel === 'history:list').length

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

describe('history store', () => {
  it('reads the list when first shown, then follows the entries runs bring without reading again', async () => {
    const history = useHistoryStore()
    fake.answers['history:list'] = [entry('a')]
    await history.show()
    history.keep(entry('b'))
    history.keep(entry('b', { pages: 2, itemCount: 20 }))
    await history.show()
    expect(reads()).toBe(1)
    expect(history.entries.map((e) => [e.id, e.pages])).toEqual([['b', 2], ['a', 1]])
  })

  it('keeps an entry that came while the list was being read, which the read may have missed', async () => {
    const history = useHistoryStore()
    fake.hold('history:list')
    const shown = history.show()
    await settle()
    history.keep(entry('new'))
    fake.held[0]!.answer([entry('old')])
    await shown
    expect(history.entries.map((e) => e.id)).toEqual(['new', 'old'])
  })
})
