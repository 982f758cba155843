import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import ResultsGrid from '../../src/renderer/components/results/ResultsGrid.vue'
import type { ResultItem } from '../../src/shared/responses'
import { columnsFor } from '../../src/shared/results/table'

function cities(count: number, homogeneous = false): ResultItem[] {
  return Array.from({ length: count }, (_, i) => {
    const city = {
      id: String(1000 + i),
      class: ['city'],
      attributes: { name: `City ${i + 1}`, population: (count - i) * 10, country: { id: 'FR', class: ['country'], attributes: { name: 'France' } } },
    }
    return { rank: i + 1, probability: 1 - i / count, tuple: homogeneous ? { '1': city } : [city] }
  })
}

/** The grid fills its parent, as in the results panel: a box of a window's size. */
function sized(): HTMLElement {
  const box = document.body.appendChild(document.createElement('div'))
  box.style.cssText = 'height: 400px; width: 900px; display: flex; flex-direction: column'
  return box
}

async function mount(items: ResultItem[]) {
  const details: ResultItem[] = []
  const screen = await render(ResultsGrid, {
    props: { items, columns: columnsFor(items), onDetail: (item: ResultItem) => details.push(item) },
    container: sized(),
  })
  return { screen, details }
}

describe('ResultsGrid', () => {
  it('is a table named Results: rank first, probability, then the object id, class and attributes', async () => {
    const { screen } = await mount(cities(5))
    const table = screen.getByRole('table', { name: 'Results' })
    await expect.element(table).toBeVisible()
    const headers = table.getByRole('columnheader').elements().map((cell) => cell.textContent?.trim())
    expect(headers.slice(0, 7)).toEqual(['Rank', 'Probability', 'id', 'class', 'name', 'population', 'country'])
    await expect.element(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveTextContent('1')
    await expect.element(table.getByRole('row').nth(1).getByRole('cell').nth(4)).toHaveTextContent('City 1')
  })

  it('shows the new columns and the new rows when the user picks columns or a new answer arrives', async () => {
    const items = cities(5)
    const screen = await render(ResultsGrid, { props: { items, columns: columnsFor(items) }, container: sized() })
    const row = (n: number) => screen.getByRole('row').nth(n)
    await expect.element(row(2).getByRole('cell').nth(4)).toHaveTextContent('City 2')
    const chosen = columnsFor(items, { chosen: new Set(['1.population']) })
    await screen.rerender({ items, columns: chosen })
    await expect.element(row(2).getByRole('cell').nth(4)).toHaveTextContent('40')
    const next = cities(3).map((item) => ({ ...item, rank: item.rank + 10 }))
    await screen.rerender({ items: next, columns: chosen })
    await expect.element(row(1).getByRole('cell').first()).toHaveTextContent('11')
    await expect.element(row(1).getByRole('button', { name: 'Details of row 11' })).toBeVisible()
    expect(screen.getByRole('row').elements()).toHaveLength(4)
  })

  it('reads the object form of tuples (homogeneousArrays) the same way', async () => {
    const { screen } = await mount(cities(3, true))
    await expect.element(screen.getByRole('row').nth(2).getByRole('cell').nth(4)).toHaveTextContent('City 2')
  })

  it('renders only the rows in view of 10,000, and reaches the last by scrolling', async () => {
    const { screen } = await mount(cities(10_000))
    const table = screen.getByRole('table', { name: 'Results' })
    await expect.element(table).toHaveAttribute('aria-rowcount', '10001')
    expect(table.getByRole('row').elements().length).toBeLessThan(50)
    const grid = table.element() as HTMLElement
    grid.scrollTop = grid.scrollHeight
    await expect.element(screen.getByRole('row').last().getByRole('cell').first()).toHaveTextContent('10000')
  })

  it('opens nested objects in the row detail', async () => {
    const { screen, details } = await mount(cities(3))
    await screen.getByRole('button', { name: 'Open country of row 2' }).click()
    await screen.getByRole('button', { name: 'Details of row 3' }).click()
    expect(details.map((item) => item.rank)).toEqual([2, 3])
  })

  it('copies a cell and a row', async () => {
    const { screen } = await mount(cities(3))
    let copied = ''
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } })
    await screen.getByRole('row').nth(2).getByRole('cell').nth(4).click()
    await screen.getByRole('button', { name: 'Copy cell' }).click()
    expect(copied).toBe('City 2')
    await expect.element(screen.getByRole('status')).toHaveTextContent('Copied name of row 2')
    await screen.getByRole('button', { name: 'Copy row 3' }).click()
    expect(copied.split('\t').slice(0, 6)).toEqual(['3', '0.3333', '1002', 'city', 'City 3', '10'])
  })

  it('moves the active cell with the arrow keys and resizes a column from the keyboard', async () => {
    const { screen } = await mount(cities(3))
    await screen.getByRole('row').nth(1).getByRole('cell').nth(4).click()
    await userEvent.keyboard('{ArrowDown}')
    await expect.element(screen.getByRole('row').nth(2).getByRole('cell').nth(4).getByRole('button', { name: 'Copy cell' })).toBeVisible()
    const handle = screen.getByRole('separator', { name: 'Resize column name' })
    const before = Number(handle.element().getAttribute('aria-valuenow'))
    ;(handle.element() as HTMLElement).focus()
    await userEvent.keyboard('{ArrowRight}')
    await expect.element(handle).toHaveAttribute('aria-valuenow', String(before + 16))
  })

  it('gives the active cell the keyboard focus, and keeps it on that row while the row is scrolled away and back', async () => {
    const { screen, details } = await mount(cities(2_000))
    await screen.getByRole('row').nth(3).getByRole('cell').nth(4).click()
    await expect.poll(() => document.activeElement?.textContent).toBe('City 3')
    await userEvent.keyboard('{ArrowDown}{ArrowRight}')
    await expect.poll(() => document.activeElement?.textContent).toBe('19970')
    const grid = screen.getByRole('table', { name: 'Results' }).element() as HTMLElement
    grid.scrollTop = 34 * 895
    await expect.element(screen.getByRole('cell', { name: 'City 900', exact: true })).toBeVisible()
    expect(document.activeElement?.textContent).toBe('19970')
    grid.scrollTop = 0
    await expect.element(screen.getByRole('cell', { name: 'City 1', exact: true })).toBeVisible()
    expect(document.activeElement?.closest('[role=row]')?.getAttribute('aria-rowindex')).toBe('5')
    await userEvent.keyboard('{Enter}')
    expect(details.map((item) => item.rank)).toEqual([4])
    // A click elsewhere, even on nothing focusable, takes the focus out of the grid for good: scrolling does not take it back.
    const elsewhere = document.body.appendChild(document.createElement('p'))
    elsewhere.textContent = 'Elsewhere'
    await userEvent.click(elsewhere)
    grid.scrollTop = 34 * 895
    await expect.element(screen.getByRole('cell', { name: 'City 900', exact: true })).toBeVisible()
    grid.scrollTop = 0
    await expect.element(screen.getByRole('cell', { name: 'City 1', exact: true })).toBeVisible()
    expect(grid.contains(document.activeElement)).toBe(false)
    elsewhere.remove()
  })

  it('fits five-digit ranks, and shows a tooltip only on text that is cut off', async () => {
    const { screen } = await mount(cities(10_000))
    const grid = screen.getByRole('table', { name: 'Results' }).element() as HTMLElement
    grid.scrollTop = grid.scrollHeight
    const rank = screen.getByRole('cell', { name: '10000', exact: true })
    await expect.element(rank).toBeVisible()
    const cell = rank.element() as HTMLElement
    expect(cell.scrollWidth).toBeLessThanOrEqual(cell.clientWidth)
    await userEvent.hover(cell)
    expect(cell.hasAttribute('title')).toBe(false)
    const handle = screen.getByRole('separator', { name: 'Resize column name' })
    ;(handle.element() as HTMLElement).focus()
    for (let i = 0; i < 6; i++) await userEvent.keyboard('{ArrowLeft}')
    const name = screen.getByRole('cell', { name: 'City 10000', exact: true })
    await userEvent.hover(name)
    await expect.element(name).toHaveAttribute('title', 'City 10000')
  })
})
