import { beforeAll, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { page, userEvent } from 'vitest/browser'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import type { ResultItem } from '../../src/shared/responses'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * Rating in the results grid: while a query of a set is rated, a Rating
 * column follows Rank, a grade key on the active row rates its item through
 * sets:rate (and the cell says it in words), Backspace clears it, a digit
 * off the scale or with a modifier does nothing, and the banner above the
 * grid counts the top 10 and stops rating.
 */

const fake = bridgeForFile()

const SET: QuerySet = {
  name: 'World cities (synthetic judgments)',
  query: 'City search',
  queries: [
    { id: 'q01', text: 'paris' },
    { id: 'q02', text: 'lisbon' },
  ],
  judgments: [{ query: 'q01', item: '1000', rater: 'r1', grade: 3 }],
}

function view(): WorkspaceView {
  return { name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], sets: [setSummary(SET)], bindings: [] }
}

function cities(count: number): ResultItem[] {
  return Array.from({ length: count }, (_, i) => ({
    rank: i + 1,
    probability: 1 - i / count,
    tuple: [{ id: String(1000 + i), class: ['city'], attributes: { name: `City ${i + 1}`, population: (count - i) * 10 } }],
  }))
}

/** The results panel on a Pinia whose stores hold rows and the set, rating `rating` (null: none). */
async function mount(rating: string | null, items = cities(5), width = 1000) {
  const pinia = demoWindow(fake, {
    'sets:get': SET,
    'sets:rate': view(),
    'eval:list': [],
  })
  const [{ default: ResultsPanel }, { useQuerySetsStore }, { useQueryStore }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/results/ResultsPanel.vue'),
    import('../../src/renderer/stores/query-sets'),
    import('../../src/renderer/stores/query'),
    import('../../src/renderer/stores/workspace'),
  ])
  const box = document.body.appendChild(document.createElement('div'))
  // A grid cell of the window's size, as the workbench gives the panel: the panel fills it, the grid the rest.
  box.style.cssText = `height: 600px; width: ${width}px; display: grid`
  const screen = await render(ResultsPanel, { global: { plugins: [pinia] }, container: box })
  const store = useQuerySetsStore(pinia)
  useWorkspaceStore(pinia).show(view())
  await settle()
  store.set = SET
  store.ratingQuery = rating
  const query = useQueryStore(pinia)
  query.items = items
  return { screen, store, query }
}

const rateCalls = () => fake.calls.filter((call) => call.channel === 'sets:rate').map((call) => call.request)

describe('the Rating column', () => {
  beforeAll(() => page.viewport(1280, 900))

  it('is not there while no query is rated', async () => {
    const { screen } = await mount(null)
    const grid = screen.getByRole('grid', { name: 'Results' })
    await expect.element(grid).toBeVisible()
    expect(grid.getByRole('columnheader').elements().map((cell) => cell.textContent?.trim()).slice(0, 3)).toEqual(['Rank', 'Probability', 'id'])
    expect(screen.getByRole('region', { name: 'Rating' }).query()).toBeNull()
    expect(document.getElementById('grid-keys')?.textContent).not.toMatch(/rate/)
  })

  it('follows Rank while a query is rated, a grade key rating the active row through sets:rate, Backspace clearing it', async () => {
    const { screen } = await mount('q01')
    const grid = screen.getByRole('grid', { name: 'Results' })
    await expect.element(grid.getByRole('columnheader', { name: 'Rating' })).toBeVisible()
    expect(grid.getByRole('columnheader').elements().map((cell) => cell.textContent?.trim()).slice(0, 3)).toEqual(['Rank', 'Rating', 'Probability'])
    const rating = (row: number) => grid.getByRole('row').nth(row).getByRole('gridcell').nth(1)
    // A grade given before: in words, in the top grade's colour.
    await expect.element(rating(1)).toHaveTextContent('3 Perfect')
    expect(rating(1).element().classList.contains('grade--top')).toBe(true)
    expect(document.getElementById('grid-keys')?.textContent).toMatch(/0–3 rate the active row's result .*Backspace or Delete clears its rating/)

    const banner = screen.getByRole('region', { name: 'Rating' })
    await expect.element(banner).toHaveTextContent(
      'Rating results for “paris” (q01) in World cities (synthetic judgments) as r1 — 1 of the top 5 rated · 0–3 rate the active row, Backspace clears',
    )

    await grid.getByRole('gridcell', { name: 'City 3', exact: true }).click()
    await userEvent.keyboard('2')
    await expect.element(rating(3)).toHaveTextContent('2 Good')
    expect(rating(3).element().classList.contains('grade--high')).toBe(true)
    expect(rateCalls()).toEqual([{ set: SET.name, query: 'q01', item: '1002', grade: 2 }])
    await expect.element(screen.getByRole('status').filter({ hasText: 'Rated' })).toHaveTextContent('Rated row 3: 2 Good')
    await expect.element(banner).toHaveTextContent('2 of the top 5 rated')
    // The focus stays on the cell it was on, for the next key.
    expect(document.activeElement?.textContent).toBe('City 3')

    // Off the scale, or with a modifier: nothing.
    await userEvent.keyboard('7')
    await userEvent.keyboard('{Alt>}1{/Alt}')
    await userEvent.keyboard('{Control>}1{/Control}')
    expect(rateCalls()).toHaveLength(1)
    await expect.element(rating(3)).toHaveTextContent('2 Good')

    // Copy row copies what the grid shows, the rating with it.
    let copied = ''
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } })
    await userEvent.keyboard('{Control>}{Shift>}c{/Shift}{/Control}')
    expect(copied.split('\t').slice(0, 4)).toEqual(['3', '2 Good', '0.6000', '1002'])

    await userEvent.keyboard('{Backspace}')
    await expect.poll(() => rating(3).element().textContent).toBe('')
    expect(rateCalls().at(-1)).toEqual({ set: SET.name, query: 'q01', item: '1002', grade: null })
    await expect.element(banner).toHaveTextContent('1 of the top 5 rated')
    // Nothing to clear: main is not asked.
    await userEvent.keyboard('{Delete}')
    expect(rateCalls()).toHaveLength(2)

    // The lowest grade, from another row, reached with the arrow keys.
    await userEvent.keyboard('{ArrowDown}0')
    await expect.element(rating(4)).toHaveTextContent('0 Poor')
    expect(rating(4).element().classList.contains('grade--lowest')).toBe(true)
    expect(rateCalls().at(-1)).toEqual({ set: SET.name, query: 'q01', item: '1003', grade: 0 })
  })

  it('goes with Stop rating, and the rows stay', async () => {
    const { screen, store } = await mount('q01')
    await screen.getByRole('button', { name: 'Stop rating' }).click()
    expect(store.ratingQuery).toBeNull()
    await expect.poll(() => screen.getByRole('columnheader', { name: 'Rating' }).query()).toBeNull()
    expect(screen.getByRole('region', { name: 'Rating' }).query()).toBeNull()
    await expect.element(screen.getByRole('gridcell', { name: 'City 3', exact: true })).toBeVisible()
    // A digit on a row no longer rates.
    await screen.getByRole('gridcell', { name: 'City 2', exact: true }).click()
    await userEvent.keyboard('2')
    expect(rateCalls()).toEqual([])
  })

  it('leaves the Rating column out of an export: main writes the file from the answer, which has no grades', async () => {
    const { screen, query } = await mount('q01')
    const request: QueryRequest = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'paris' } }], responseType: 'results', options: {} }
    query.shown = { connectionId: 'c1', request }
    fake.answers['export:start'] = null
    await expect.element(screen.getByRole('columnheader', { name: 'Rating' })).toBeVisible()
    await screen.getByRole('button', { name: 'Export', exact: true }).click()
    const dialog = screen.getByRole('dialog', { name: 'Export results' })
    await expect.element(dialog.getByRole('radio', { name: 'As the grid shows them' })).toHaveAccessibleDescription(/^6 columns: rank, probability, id, class, name, population$/)
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    await expect.poll(() => fake.calls.find((call) => call.channel === 'export:start')?.request).toMatchObject({
      columns: ['rank', 'probability', '1.id', '1.class', '1.name', '1.population'],
    })
  })

  it('stays beside Rank and the name while the grid scrolls sideways', async () => {
    const { screen } = await mount('q01', cities(5), 360)
    const grid = screen.getByRole('grid', { name: 'Results' }).element() as HTMLElement
    await expect.element(screen.getByRole('gridcell', { name: '3 Perfect' })).toBeVisible()
    expect(grid.scrollWidth).toBeGreaterThan(grid.clientWidth)
    grid.scrollLeft = grid.scrollWidth
    await expect.poll(() => grid.scrollLeft).toBeGreaterThan(100)
    const left = (element: Element) => element.getBoundingClientRect().left
    const right = (element: Element) => element.getBoundingClientRect().right
    const cells = screen.getByRole('row').nth(1).getByRole('gridcell')
    const [rank, rating] = [cells.nth(0).element(), cells.nth(1).element()]
    const name = screen.getByRole('gridcell', { name: 'City 1', exact: true }).element()
    await expect.poll(() => left(rank)).toBe(left(grid))
    expect(left(rating)).toBe(right(rank))
    expect(left(name)).toBe(right(rating))
    expect(document.elementFromPoint(left(rating) + 10, rating.getBoundingClientRect().top + 10)).toBe(rating)
  })

  it('counts only the top 10 rows of the grid in the banner', async () => {
    const { screen } = await mount('q01', cities(25))
    await expect.element(screen.getByRole('region', { name: 'Rating' })).toHaveTextContent('1 of the top 10 rated')
  })
})

describe("the item a disagreement's Open marks", () => {
  beforeAll(() => page.viewport(1280, 900))

  /**
   * The panel rating paris, showing the previous answer's rows; then, as
   * openInGrid does it, the item marked while the run is on its way, and the
   * answer's rows (60 cities: more than the grid shows at once).
   */
  async function open(item: string, items = cities(60)) {
    const mounted = await mount('q01', cities(5))
    const { store, query } = mounted
    query.phase = 'done'
    await expect.element(mounted.screen.getByRole('gridcell', { name: 'City 5', exact: true })).toBeVisible()
    store.marked = { query: 'q01', item }
    query.phase = 'running'
    await settle()
    // While the run is on its way, the rows are the last answer's: nothing is marked, nothing is said.
    expect(document.querySelector('[aria-current]')).toBeNull()
    expect(mounted.screen.getByRole('region', { name: 'Rating' }).element().textContent).not.toMatch(/marked/)
    query.items = items
    query.phase = 'done'
    return mounted
  }

  it('is outlined, the current row, in view and the active row: a digit rates it at once', async () => {
    const { screen, query } = await open('1040')
    const grid = screen.getByRole('grid', { name: 'Results' })
    const row = grid.getByRole('row').filter({ hasText: 'City 41' })
    await expect.element(row).toHaveAttribute('aria-current', 'true')
    expect(row.element().classList.contains('grid__row--marked')).toBe(true)
    expect(grid.element().querySelectorAll('[aria-current]')).toHaveLength(1)
    // Scrolled to: the whole row inside the grid, below its header.
    const box = (element: Element) => element.getBoundingClientRect()
    await expect.poll(() => box(row.element()).top).toBeGreaterThanOrEqual(box(grid.getByRole('row').first().element()).bottom)
    expect(box(row.element()).bottom).toBeLessThanOrEqual(box(grid.element()).bottom)
    // The active row, its label cell holding the focus.
    await expect.poll(() => document.activeElement?.textContent).toBe('City 41')
    expect(row.element().contains(document.activeElement)).toBe(true)

    await userEvent.keyboard('2')
    expect(rateCalls()).toEqual([{ set: SET.name, query: 'q01', item: '1040', grade: 2 }])
    await expect.element(row.getByRole('gridcell').nth(1)).toHaveTextContent('2 Good')
    expect(screen.getByRole('region', { name: 'Rating' }).element().textContent).not.toMatch(/marked/)

    // The mark stays, where a later run of the query puts it, but that run does not take the focus back to it.
    ;(document.activeElement as HTMLElement).blur()
    query.items = cities(60).reverse()
    await expect.element(grid.getByRole('gridcell', { name: 'City 60', exact: true })).toBeVisible()
    await settle()
    expect(grid.element().querySelector('.grid__cell--active')).toBeNull()
    expect(grid.element().contains(document.activeElement)).toBe(false)
    grid.element().scrollTop = 19 * 34
    await expect.element(grid.getByRole('row').filter({ hasText: 'City 41' })).toHaveAttribute('aria-current', 'true')
  })

  it('has a ring of at least 3:1 against its row, in both themes', async () => {
    const { screen } = await open('1002', cities(5))
    const row = screen.getByRole('row').filter({ hasText: 'City 3' })
    await expect.element(row).toHaveAttribute('aria-current', 'true')
    const channels = (value: string) => value.match(/[\d.]+/g)!.slice(0, 3).map(Number)
    const luminance = (rgb: number[]) => {
      const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)
      return 0.2126 * linear(rgb[0]!) + 0.7152 * linear(rgb[1]!) + 0.0722 * linear(rgb[2]!)
    }
    const contrast = (a: number[], b: number[]) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
      return (light! + 0.05) / (dark! + 0.05)
    }
    try {
      for (const theme of ['light', 'dark']) {
        document.documentElement.dataset.theme = theme
        const ring = channels(getComputedStyle(row.element(), '::after').boxShadow)
        const fill = channels(getComputedStyle(row.element()).backgroundColor)
        const plain = channels(getComputedStyle(screen.getByRole('row').filter({ hasText: 'City 2' }).element()).backgroundColor)
        expect(fill, `${theme}: the marked row's fill is its own`).not.toEqual(plain)
        expect(contrast(ring, fill), `${theme}: ring on the marked row`).toBeGreaterThanOrEqual(3)
      }
    } finally {
      delete document.documentElement.dataset.theme
    }
  })

  it('not among the rows, is said in the banner, and nothing is marked', async () => {
    const { screen } = await open('9999', cities(12))
    await expect.element(screen.getByRole('region', { name: 'Rating' }).getByRole('status')).toHaveTextContent('The item marked is not on this page of results (9999)')
    expect(document.querySelector('[aria-current]')).toBeNull()
    expect(document.querySelector('.grid__cell--active')).toBeNull()
  })
})
