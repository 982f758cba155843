import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ExplorerBridge } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { DEMO_VIEW, TEST_INFO } from './window-fixtures'

/**
 * The results panel over a run of 25 rows in pages of 10, as the service
 * answers it: the toolbar says which rows of how many, the pager pages and
 * jumps (a page past the last goes to the last), Load more fills the grid
 * and the pager then names the rows loaded, and a failed run marks the rows
 * as the previous run's. What it asks is what main gets.
 */

const TOTAL = 25
const runs: QueryRequest[] = []
let refuse = false

const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    if (channel === 'query:run') {
      const asked = (request as { request: QueryRequest }).request
      runs.push(asked)
      if (refuse) return { ok: false, error: { code: 'http', message: 'The service answered 500: boom' } } as never
      const offset = Number(asked.options.offset ?? 0)
      const count = Number(asked.options.count ?? 10)
      const body = asked.responseType === 'statistics'
        ? { total: TOTAL, stats: [] }
        : {
            items: Array.from({ length: Math.max(0, Math.min(count, TOTAL - offset)) }, (_, i) => ({
              rank: offset + i + 1, probability: 0.5, tuple: [{ id: `t${offset + i + 1}`, class: ['city'], attributes: { name: `Town ${offset + i + 1}` } }],
            })),
          }
      return { ok: true, data: { url: 'http://127.0.0.1:1/query', status: 200, contentType: 'application/json', bytes: 1, body, timings: { connectMs: 0, firstByteMs: 1, totalMs: 12.4 }, cached: false } } as never
    }
    const answers: Record<string, unknown> = {
      'app:info': TEST_INFO,
      'connections:list': [DEMO_VIEW],
      'api:learn': { description: null, absence: { reason: 'not-found', status: 404 } },
      'history:list': [],
    }
    return { ok: true, data: answers[channel] ?? null } as never
  },
}

afterEach(() => {
  delete window.explorer
  runs.length = 0
  refuse = false
  document.body.replaceChildren()
})

async function mount() {
  window.explorer = bridge
  const [{ default: ResultsPanel }, { useConnectionsStore }, { useChainStore }, { useQueryStore }] = await Promise.all([
    import('../../src/renderer/components/results/ResultsPanel.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/chain'),
    import('../../src/renderer/stores/query'),
  ])
  const pinia = createPinia()
  await useConnectionsStore(pinia).load()
  await useChainStore(pinia).loadRequest({ workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'town' } }], responseType: 'results', options: { count: 10 } })
  const screen = await render(ResultsPanel, { global: { plugins: [pinia] } })
  const query = useQueryStore(pinia)
  await query.run(0)
  const panel = screen.getByRole('region', { name: 'Results panel' })
  return { screen, panel, query }
}

const rowsAsked = () => runs.filter((request) => request.responseType === 'results').map((request) => [request.options.offset ?? 0, request.options.count])

describe('ResultsPanel', () => {
  it('says which rows of how many it shows, and pages: Next, Previous, and a page typed (past the last: the last)', async () => {
    const { panel } = await mount()
    await expect.element(panel.getByText('Rows 1–10 of 25')).toBeVisible()
    await expect.element(panel.getByText('12 ms')).toBeVisible()
    const pages = panel.getByRole('navigation', { name: 'Pages' })
    await expect.element(pages.getByRole('button', { name: 'Previous page' })).toBeDisabled()
    await expect.element(pages).toHaveTextContent('of 3')

    await pages.getByRole('button', { name: 'Next page' }).click()
    await expect.element(panel.getByText('Rows 11–20 of 25')).toBeVisible()
    await expect.element(pages.getByText('Page 2 of 3')).toBeInTheDocument()

    const jump = pages.getByRole('spinbutton')
    await jump.fill('9')
    await userEvent.keyboard('{Enter}')
    await expect.element(panel.getByText('Rows 21–25 of 25')).toBeVisible()
    await expect.element(jump).toHaveValue(3)
    await expect.element(pages.getByRole('button', { name: 'Next page' })).toBeDisabled()

    await pages.getByRole('button', { name: 'Previous page' }).click()
    await expect.element(panel.getByText('Rows 11–20 of 25')).toBeVisible()
    expect(rowsAsked()).toEqual([[0, 10], [10, 10], [20, 10], [10, 10]])
  })

  it('loads more into the grid, up to the total, and then names the rows loaded and the pages they span', async () => {
    const { panel } = await mount()
    await expect.element(panel.getByText('Rows 1–10 of 25')).toBeVisible()
    await panel.getByRole('button', { name: 'Load more' }).click()
    await expect.element(panel.getByText('Rows 1–20 of 25').first()).toBeVisible()
    await expect.element(panel.getByText('Rows 1–20 of 25, pages 1–2 of 3')).toBeInTheDocument()

    await panel.getByRole('combobox', { name: 'Load how many' }).selectOptions('up to 1,000 rows')
    await panel.getByRole('button', { name: 'Load more' }).click()
    await expect.element(panel.getByText('Rows 1–25 of 25').first()).toBeVisible()
    // Nothing is left to load.
    await expect.element(panel.getByRole('button', { name: 'Load more' })).toBeDisabled()
    await expect.element(panel.getByRole('button', { name: 'Next page' })).toBeDisabled()
    expect(rowsAsked()[0]).toEqual([0, 10])
    expect(rowsAsked().slice(1).every(([offset]) => Number(offset) >= 10)).toBe(true)
  })

  it('marks the rows shown as the previous run’s when a run fails, and switches to the raw response', async () => {
    const { panel, query } = await mount()
    await expect.element(panel.getByText('Rows 1–10 of 25')).toBeVisible()
    refuse = true
    await query.run(0)
    await expect.element(panel.getByText('· from the previous run')).toBeVisible()
    await expect.element(panel.getByText('Rows 1–10 of 25')).toBeVisible()

    await panel.getByRole('tab', { name: 'Raw response' }).click()
    await expect.element(panel.getByRole('tab', { name: 'Raw response' })).toHaveAttribute('aria-selected', 'true')
    await expect.element(panel.getByRole('tabpanel')).toHaveAccessibleName('Raw response')
    await expect.element(panel.getByRole('tabpanel')).toHaveTextContent('Town 10')
  })
})
