import { beforeAll, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { page, userEvent } from 'vitest/browser'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import type { ResultItem } from '../../src/shared/responses'
import { settle } from '../renderer/fake-bridge'
import { DEMO_JUDGE } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * An LLM judge's grades in the results grid: while a query of a set is
 * rated, each judge that graded its items has a column after the person's
 * Rating, headed by its rater name (the demo's stand-in marked so), its
 * grade in words with the model's explanation as the cell's description;
 * read-only: the grade keys still rate the person's own column.
 */

const fake = bridgeForFile()

const SET: QuerySet = {
  name: 'World cities',
  query: 'City search',
  queries: [{ id: 'q01', text: 'paris' }, { id: 'q02', text: 'rome' }],
  judgments: [
    { query: 'q01', item: '1000', rater: 'r1', grade: 3 },
    { query: 'q01', item: '1000', rater: 'llm:demo', grade: 2, explanation: 'A city named Paris, not the capital.' },
    { query: 'q01', item: '1001', rater: 'llm:demo', grade: 0, explanation: 'Not a Paris at all.' },
    // Another query's grade: not in this grid.
    { query: 'q02', item: '1002', rater: 'llm:gpt', grade: 1 },
  ],
}

function view(): WorkspaceView {
  return { name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [DEMO_JUDGE], dirty: false, queries: [], tests: [], sets: [setSummary(SET)], bindings: [] }
}

function cities(count: number): ResultItem[] {
  return Array.from({ length: count }, (_, i) => ({ rank: i + 1, probability: 1 - i / count, tuple: [{ id: String(1000 + i), class: ['city'], attributes: { name: `City ${i + 1}` } }] }))
}

async function mount() {
  const pinia = demoWindow(fake, { 'sets:get': SET, 'sets:rate': view(), 'eval:list': [] })
  const [{ default: ResultsPanel }, { useQuerySetsStore }, { useQueryStore }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/results/ResultsPanel.vue'),
    import('../../src/renderer/stores/query-sets'),
    import('../../src/renderer/stores/query'),
    import('../../src/renderer/stores/workspace'),
  ])
  const box = document.body.appendChild(document.createElement('div'))
  box.style.cssText = 'height: 600px; width: 1000px; display: grid'
  const screen = await render(ResultsPanel, { global: { plugins: [pinia] }, container: box })
  const store = useQuerySetsStore(pinia)
  useWorkspaceStore(pinia).show(view())
  await settle()
  store.set = SET
  store.ratingQuery = 'q01'
  useQueryStore(pinia).items = cities(3)
  return screen
}

describe("an LLM judge's grades in the grid", () => {
  beforeAll(() => page.viewport(1280, 900))

  it('follow the Rating column, headed by the rater, the explanation as each cell\'s description; the keys still rate the person\'s own', async () => {
    const screen = await mount()
    const grid = screen.getByRole('grid', { name: 'Results' })
    await expect.element(grid.getByRole('columnheader', { name: 'llm:demo (demo)' })).toBeVisible()
    expect(grid.getByRole('columnheader').elements().map((cell) => cell.textContent?.trim()).slice(0, 4)).toEqual(['Rank', 'Rating', 'llm:demo (demo)', 'Probability'])
    const judge = (row: number) => grid.getByRole('row').nth(row).getByRole('gridcell').nth(2)
    await expect.element(judge(1)).toHaveTextContent('2 Good')
    await expect.element(judge(1)).toHaveAccessibleDescription('A city named Paris, not the capital.')
    expect(judge(1).element().classList.contains('grade--high')).toBe(true)
    await expect.element(judge(2)).toHaveTextContent('0 Poor')
    await expect.element(judge(3)).toHaveTextContent('')
    expect(judge(3).element().hasAttribute('title')).toBe(false)
    // Only the judges that graded this query's items: llm:gpt graded another.
    expect(grid.getByRole('columnheader', { name: 'llm:gpt' }).query()).toBeNull()

    await grid.getByRole('gridcell', { name: 'City 2', exact: true }).click()
    await userEvent.keyboard('3')
    await expect.element(grid.getByRole('row').nth(2).getByRole('gridcell').nth(1)).toHaveTextContent('3 Perfect')
    await expect.element(judge(2)).toHaveTextContent('0 Poor')
    expect(fake.calls.filter((call) => call.channel === 'sets:rate').map((call) => call.request)).toEqual([{ set: SET.name, query: 'q01', item: '1001', grade: 3 }])
  })
})
