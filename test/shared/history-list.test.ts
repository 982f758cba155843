import { describe, expect, it } from 'vitest'
import { matchesHistoryText, withHistoryEntry } from '../../src/shared/history/history-list'
import type { HistoryEntry } from '../../src/shared/history/history-entry'

/** The History list the window keeps from the entries runs' replies bring: the list `history:list` would give. */

const entry = (id: string, change: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id, at: '2026-11-28T04:00:00.000Z', connectionId: 'demo', connectionName: 'Demo', api: 'places', config: 'default',
  url: `http://127.0.0.1:4123/query/world/places/search/${id}/results`, responseType: 'results', status: 200, error: null,
  total: 5, itemCount: 10, pages: 1, durationMs: 12,
  request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: id } }], responseType: 'results', options: {} },
  ...change,
})

describe('withHistoryEntry', () => {
  it('puts a new run first and drops the oldest past the limit', () => {
    expect(withHistoryEntry([entry('b'), entry('a')], entry('c'), '', 2).map((e) => e.id)).toEqual(['c', 'b'])
  })

  it('changes a run Load more added pages to in its place', () => {
    const list = withHistoryEntry([entry('b'), entry('a')], entry('a', { pages: 11, itemCount: 1_000 }), '', 10)
    expect(list.map((e) => [e.id, e.pages])).toEqual([['b', 1], ['a', 11]])
  })

  it('keeps to the search: a run that does not match is not listed, and one that stops matching goes', () => {
    expect(withHistoryEntry([entry('paris')], entry('berlin'), 'PARIS', 10).map((e) => e.id)).toEqual(['paris'])
    const failed = entry('paris', { status: null, error: { code: 'network', message: 'refused' } })
    expect(withHistoryEntry([entry('paris')], failed, '200', 10)).toEqual([])
    expect(matchesHistoryText(failed, 'NETWORK')).toBe(true)
  })
})
