import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { HistoryEntry } from '../../src/shared/ipc/contract'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The History view: each recorded run with when (an older day's date too),
 * its status (a failure's code beside it), its total or items (after Load
 * more, the pages and rows it covers); a search asks main again with the
 * text; Clear says how many runs went; with nothing recorded it says so.
 */

const fake = bridgeForFile()

const entry = (id: string, at: Date, fields: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id, at: at.toISOString(), connectionId: 'c1', connectionName: 'Demo', api: 'places', config: 'default',
  url: `http://127.0.0.1:4123/query/world/api/places/e/search/p/query/${id}/results`, responseType: 'results',
  status: 200, error: null, total: null, itemCount: 7, pages: 1, durationMs: 1234,
  request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: id } }], responseType: 'results', options: {} },
  ...fields,
})

const ENTRIES = [
  entry('san', new Date(2026, 0, 1, 9, 5, 7), { total: 5628, itemCount: 30, pages: 3 }),
  entry('lima', new Date(2026, 0, 1, 8, 0, 0)),
  entry('boom', new Date(2026, 0, 1, 7, 30, 0), { status: 500, error: { code: 'http', message: 'The service answered 500.' }, itemCount: null }),
]

async function mount(entries: HistoryEntry[]) {
  const pinia = demoWindow(fake, { 'history:list': entries })
  const [{ default: HistoryPanel }, { useToastsStore }] = await Promise.all([
    import('../../src/renderer/components/history/HistoryPanel.vue'),
    import('../../src/renderer/stores/toasts'),
  ])
  const screen = await render(HistoryPanel, { global: { plugins: [pinia] } })
  return { region: screen.getByRole('region', { name: 'History' }), toasts: () => useToastsStore(pinia).toasts.map((toast) => toast.message) }
}

const lists = () => fake.calls.filter((call) => call.channel === 'history:list').map((call) => call.request)

describe('HistoryPanel', () => {
  it('lists each run with when, its status, and its total or items', async () => {
    const { region } = await mount(ENTRIES)
    const runs = region.getByRole('list', { name: 'Recorded runs' }).getByRole('listitem')
    await expect.element(runs.first()).toBeVisible()
    const line = (n: number) => [...runs.nth(n).element().children].map((cell) => cell.textContent?.trim())
    expect(line(0).slice(0, 6)).toEqual(['2026-01-01 09:05:07', 'Demo', '200', '5,628 · 3 pages, 30 rows', '1,234 ms', 'results'])
    expect(line(1).slice(2, 4)).toEqual(['200', '7 items'])
    expect(line(2).slice(2, 4)).toEqual(['500 http', '—'])
    expect(lists()[0]).toEqual({ text: '', limit: expect.any(Number) })
  })

  it('asks main again with the text searched for, and says when nothing matches', async () => {
    const { region } = await mount(ENTRIES)
    await expect.element(region.getByRole('list', { name: 'Recorded runs' })).toBeVisible()
    fake.answers['history:list'] = []
    await userEvent.fill(region.getByRole('searchbox', { name: 'Search history' }), 'quito')
    await expect.element(region.getByText('No run in the history matches this search.')).toBeVisible()
    expect(lists().at(-1)).toEqual({ text: 'quito', limit: expect.any(Number) })
  })

  it('clears the history and says how many runs went; with nothing recorded, says so', async () => {
    const { region, toasts } = await mount(ENTRIES)
    await expect.element(region.getByRole('list', { name: 'Recorded runs' })).toBeVisible()
    fake.answers['history:clear'] = { cleared: 1234 }
    await region.getByRole('button', { name: 'Clear history' }).click()
    await expect.element(region.getByText('No runs yet: each query you run is listed here.')).toBeVisible()
    expect(toasts()).toEqual(['Cleared 1,234 runs from the history.'])
    await expect.element(region.getByRole('button', { name: 'Clear history' })).toBeDisabled()
  })
})
