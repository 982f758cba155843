import { beforeAll, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { page, userEvent } from 'vitest/browser'
import ResultsGrid from '../../src/renderer/components/results/ResultsGrid.vue'
import type { ResultItem } from '../../src/shared/responses'
import { columnsFor } from '../../src/shared/results/table'

function cities(count: number, homogeneous = false): ResultItem[] {
  return Array.from({ length: count }, (_, i) => {
    const city = {
      id: String(1000 + i),
      class: ['city'],
      attributes: {
        name: `City ${i + 1}`,
        population: (count - i) * 10,
        country: { id: 'FR', class: ['country'], attributes: { name: 'France' } },
        timezone: 'Europe/Paris',
        elevation: i * 3,
      },
    }
    return { rank: i + 1, probability: 1 - i / count, tuple: homogeneous ? { '1': city } : [city] }
  })
}

/** The grid fills its parent, as in the results panel: a box of a window's size. */
function sized(width = 900): HTMLElement {
  const box = document.body.appendChild(document.createElement('div'))
  box.style.cssText = `height: 400px; width: ${width}px; display: flex; flex-direction: column`
  return box
}

async function mount(items: ResultItem[], width?: number) {
  const details: ResultItem[] = []
  const screen = await render(ResultsGrid, {
    props: { items, columns: columnsFor(items), onDetail: (item: ResultItem) => details.push(item) },
    container: sized(width),
  })
  return { screen, details }
}

/** A button placed before or after the grid, to Tab from and to. */
function buttonBeside(grid: HTMLElement, where: 'before' | 'after', name: string): HTMLButtonElement {
  const button = document.createElement('button')
  button.textContent = name
  grid.closest('.grid-wrap')![where === 'before' ? 'before' : 'after'](button)
  return button
}

const box = (element: Element) => element.getBoundingClientRect()

/** The box of an element's text, as laid out (its glyphs' line box, not the cell around them). */
function textBox(element: HTMLElement): DOMRect {
  const range = document.createRange()
  range.selectNodeContents(element)
  return range.getBoundingClientRect()
}

function rgbOf(colour: string): [number, number, number] {
  const probe = document.body.appendChild(document.createElement('span'))
  probe.style.color = colour.trim()
  const [r, g, b] = getComputedStyle(probe).color.match(/\d+/g)!.map(Number)
  probe.remove()
  return [r!, g!, b!]
}

/** A screenshot of `element` as the user sees it, to count the pixels of a colour within a box of the page. */
async function pixelsOf(element: HTMLElement) {
  const at = element.getBoundingClientRect()
  const png = await page.screenshot({ element, save: false })
  const image = new Image()
  image.src = `data:image/png;base64,${png}`
  await image.decode()
  const canvas = document.createElement('canvas')
  canvas.width = image.width
  canvas.height = image.height
  const context = canvas.getContext('2d')!
  context.drawImage(image, 0, 0)
  const scale = image.width / at.width
  const data = context.getImageData(0, 0, image.width, image.height).data
  return {
    /** Pixels within `box` (page coordinates) whose colour is within a few steps of `rgb`. */
    count(box: { left: number; right: number; top: number; bottom: number }, rgb: [number, number, number]): number {
      let found = 0
      for (let y = Math.ceil((box.top - at.top) * scale); y < Math.floor((box.bottom - at.top) * scale); y++) {
        for (let x = Math.ceil((box.left - at.left) * scale); x < Math.floor((box.right - at.left) * scale); x++) {
          const p = (y * image.width + x) * 4
          if (rgb.every((channel, c) => Math.abs(data[p + c]! - channel) <= 24)) found++
        }
      }
      return found
    },
  }
}

describe('ResultsGrid', () => {
  // Wide enough for the grids below, so what a user would see is in the viewport (elementFromPoint looks only there).
  beforeAll(() => page.viewport(1280, 900))

  it('is a grid named Results: rank first, probability, then the object id, class and attributes', async () => {
    const { screen } = await mount(cities(5))
    const table = screen.getByRole('grid', { name: 'Results' })
    await expect.element(table).toBeVisible()
    const headers = table.getByRole('columnheader').elements().map((cell) => cell.textContent?.trim())
    expect(headers.slice(0, 7)).toEqual(['Rank', 'Probability', 'id', 'class', 'name', 'population', 'country'])
    await expect.element(table.getByRole('row').nth(1).getByRole('gridcell').first()).toHaveTextContent('1')
    await expect.element(table.getByRole('row').nth(1).getByRole('gridcell').nth(4)).toHaveTextContent('City 1')
  })

  it('shows the new columns and the new rows when the user picks columns or a new answer arrives', async () => {
    const items = cities(5)
    const screen = await render(ResultsGrid, { props: { items, columns: columnsFor(items) }, container: sized() })
    const row = (n: number) => screen.getByRole('row').nth(n)
    await expect.element(row(2).getByRole('gridcell').nth(4)).toHaveTextContent('City 2')
    const chosen = columnsFor(items, { chosen: new Set(['1.population']) })
    await screen.rerender({ items, columns: chosen })
    await expect.element(row(2).getByRole('gridcell').nth(4)).toHaveTextContent('40')
    const next = cities(3).map((item) => ({ ...item, rank: item.rank + 10 }))
    await screen.rerender({ items: next, columns: chosen })
    await expect.element(row(1).getByRole('gridcell').first()).toHaveTextContent('11')
    await expect.element(row(1).getByRole('button', { name: 'Details of row 11' })).toBeVisible()
    expect(screen.getByRole('row').elements()).toHaveLength(4)
  })

  it('reads the object form of tuples (homogeneousArrays) the same way', async () => {
    const { screen } = await mount(cities(3, true))
    await expect.element(screen.getByRole('row').nth(2).getByRole('gridcell').nth(4)).toHaveTextContent('City 2')
  })

  it('renders only the rows in view of 10,000, and reaches the last by scrolling', async () => {
    const { screen } = await mount(cities(10_000))
    const table = screen.getByRole('grid', { name: 'Results' })
    await expect.element(table).toHaveAttribute('aria-rowcount', '10001')
    expect(table.getByRole('row').elements().length).toBeLessThan(50)
    const grid = table.element() as HTMLElement
    grid.scrollTop = grid.scrollHeight
    await expect.element(screen.getByRole('row').last().getByRole('gridcell').first()).toHaveTextContent('10000')
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
    await screen.getByRole('row').nth(2).getByRole('gridcell').nth(4).click()
    await screen.getByRole('button', { name: 'Copy cell' }).click()
    expect(copied).toBe('City 2')
    await expect.element(screen.getByRole('status')).toHaveTextContent('Copied name of row 2')
    await screen.getByRole('button', { name: 'Copy row 3' }).click()
    expect(copied.split('\t').slice(0, 6)).toEqual(['3', '0.3333', '1002', 'city', 'City 3', '10'])
    await screen.getByRole('gridcell', { name: 'City 1', exact: true }).click()
    await userEvent.keyboard('{Control>}{Shift>}c{/Shift}{/Control}')
    expect(copied.split('\t').slice(0, 5)).toEqual(['1', '1.0000', '1000', 'city', 'City 1'])
  })

  it('moves the active cell with the arrow keys, up onto the headers, where Alt+Right and Alt+Left resize the column', async () => {
    const { screen } = await mount(cities(3))
    await screen.getByRole('row').nth(1).getByRole('gridcell').nth(4).click()
    await userEvent.keyboard('{ArrowDown}')
    await expect.element(screen.getByRole('row').nth(2).getByRole('gridcell').nth(4).getByRole('button', { name: 'Copy cell' })).toBeVisible()
    await userEvent.keyboard('{ArrowUp}{ArrowUp}')
    const header = screen.getByRole('columnheader', { name: 'name' })
    await expect.poll(() => document.activeElement).toBe(header.element())
    expect(header.element().getAttribute('title')).toMatch(/Alt\+Left or Alt\+Right arrow resizes the column/)
    const cell = screen.getByRole('gridcell', { name: 'City 1', exact: true }).element()
    const before = box(header.element()).width
    await userEvent.keyboard('{Alt>}{ArrowRight}{/Alt}')
    await expect.poll(() => box(header.element()).width).toBe(before + 16)
    expect(box(cell).width).toBe(before + 16)
    await userEvent.keyboard('{Alt>}{ArrowLeft}{/Alt}')
    await expect.poll(() => box(header.element()).width).toBe(before)
    await userEvent.keyboard('{ArrowDown}')
    await expect.poll(() => document.activeElement?.textContent).toBe('City 1')
  })

  it('is one Tab stop: Tab enters at the active cell and the next Tab leaves the grid', async () => {
    const { screen } = await mount(cities(50))
    const grid = screen.getByRole('grid', { name: 'Results' }).element() as HTMLElement
    const before = buttonBeside(grid, 'before', 'Before')
    const after = buttonBeside(grid, 'after', 'After')
    // Before any cell is active, Tab lands on the first cell in view.
    before.focus()
    await userEvent.tab()
    await expect.poll(() => document.activeElement?.getAttribute('role')).toBe('gridcell')
    expect(document.activeElement?.textContent).toBe('1')
    await userEvent.tab()
    expect(document.activeElement).toBe(after)
    // Once a cell is active, Tab and Shift+Tab come back to it.
    await screen.getByRole('gridcell', { name: 'City 3', exact: true }).click()
    after.focus()
    await userEvent.tab({ shift: true })
    expect(document.activeElement?.textContent).toBe('City 3')
    before.focus()
    let stops = 0
    while (document.activeElement !== after && stops < 100) {
      await userEvent.tab()
      stops++
    }
    expect(stops).toBe(2)
    expect([...grid.querySelectorAll<HTMLElement>('*')].filter((element) => element.tabIndex >= 0)).toHaveLength(1)
    // The buttons are out of the Tab order but keep their names, and the keys do their work on the active cell.
    await expect.element(screen.getByRole('button', { name: 'Details of row 3' })).toHaveAttribute('tabindex', '-1')
    before.remove()
    after.remove()
  })

  it('keeps Rank and the name pinned on the left, and the row actions in view, while the grid scrolls sideways', async () => {
    const { screen, details } = await mount(cities(20), 560)
    const grid = screen.getByRole('grid', { name: 'Results' }).element() as HTMLElement
    expect(grid.scrollWidth).toBeGreaterThan(grid.clientWidth)
    grid.scrollIntoView()
    const row = screen.getByRole('row').nth(2)
    // Without scrolling sideways, the row's actions sit at the grid's right edge, a column of their own the others pass under.
    await userEvent.hover(row.getByRole('gridcell').nth(2))
    const detailsButton = row.getByRole('button', { name: 'Details of row 2' }).element()
    const inside = (element: Element) => box(element).left >= box(grid).left && box(element).right <= box(grid).left + grid.clientWidth
    expect(inside(detailsButton)).toBe(true)
    const centre = box(detailsButton)
    expect(document.elementFromPoint(centre.x + centre.width / 2, centre.y + centre.height / 2)).toBe(detailsButton)
    await userEvent.click(detailsButton)
    expect(details.map((item) => item.rank)).toEqual([2])

    grid.scrollLeft = grid.scrollWidth
    await expect.poll(() => grid.scrollLeft).toBeGreaterThan(300)
    const rank = row.getByRole('gridcell').first().element()
    const name = screen.getByRole('gridcell', { name: 'City 2', exact: true }).element()
    await expect.poll(() => box(rank).left).toBe(box(grid).left)
    expect(box(name).left).toBe(box(rank).right)
    expect(document.elementFromPoint(box(name).left + 10, box(name).top + 10)).toBe(name)
    expect(screen.getByRole('columnheader', { name: 'Rank' }).element().getBoundingClientRect().left).toBe(box(grid).left)
    await userEvent.hover(rank)
    expect(inside(row.getByRole('button', { name: 'Copy row 2' }).element())).toBe(true)
    // The active row keeps its actions in view too, without the pointer.
    await userEvent.click(name)
    grid.scrollLeft = 0
    await userEvent.hover(screen.getByRole('row').nth(5).getByRole('gridcell').nth(2))
    await expect.poll(() => inside(row.getByRole('button', { name: 'Details of row 2' }).element())).toBe(true)
  })

  it('paints the stripes of the rows under the pinned cells, wherever the rows in view start', async () => {
    const { screen } = await mount(cities(40), 560)
    const grid = screen.getByRole('grid', { name: 'Results' }).element() as HTMLElement
    const probe = grid.appendChild(document.createElement('div'))
    probe.style.background = 'var(--row-alt)'
    const stripe = getComputedStyle(probe).backgroundColor
    probe.remove()
    grid.scrollLeft = 400
    const cell = (rank: number) => screen.getByRole('gridcell', { name: `City ${rank}`, exact: true }).element()
    const colour = (rank: number) => getComputedStyle(cell(rank)).backgroundColor
    // Scrolled by an even and an odd number of rows: the window's first row changes parity.
    for (const top of [0, 7, 12]) {
      grid.scrollTop = 34 * top
      await expect.element(screen.getByRole('gridcell', { name: `City ${top + 9}`, exact: true })).toBeInTheDocument()
      for (let rank = top + 2; rank <= top + 8; rank++) {
        // The row under the pointer (where an earlier test left it) shows the hover colour instead.
        if (cell(rank).parentElement!.matches(':hover')) continue
        // Ranks count from 1 and the stripes from the second row: even ranks are striped.
        if (rank % 2 === 0) expect(colour(rank), `rank ${rank}`).toBe(stripe)
        else expect(colour(rank), `rank ${rank}`).not.toBe(stripe)
      }
    }
  })

  it('scrolls sideways to the column the arrow keys move to, clear of the pinned columns and the row actions', async () => {
    const { screen } = await mount(cities(20), 560)
    const grid = screen.getByRole('grid', { name: 'Results' }).element() as HTMLElement
    await screen.getByRole('row').nth(1).getByRole('gridcell').first().click()
    const actions = screen.getByRole('row').nth(1).getByRole('gridcell').last().element()
    for (const key of ['{End}', '{Home}', '{ArrowRight}', '{ArrowRight}', '{ArrowRight}', '{End}', '{ArrowLeft}', '{ArrowLeft}', '{ArrowLeft}', '{ArrowLeft}']) {
      await userEvent.keyboard(key)
      await expect.poll(() => document.activeElement?.classList.contains('grid__cell--active')).toBe(true)
      const cell = box(document.activeElement!)
      const pinned = [...screen.getByRole('row').nth(1).element().querySelectorAll('.grid__cell--pinned')].filter((element) => element !== document.activeElement)
      expect(cell.right, key).toBeLessThanOrEqual(box(actions).left + 1)
      for (const element of pinned) expect(cell.left >= box(element).right - 1 || cell.right <= box(element).left + 1, key).toBe(true)
      expect(cell.left, key).toBeGreaterThanOrEqual(box(grid).left)
    }
    // A click on a cell that the row actions partly cover brings it out too.
    grid.scrollLeft = 0
    await expect.poll(() => box(actions).left).toBeLessThan(box(grid).right)
    const edge = box(grid).left + grid.clientWidth - 64
    const covered = screen.getByRole('row').nth(3).getByRole('gridcell').elements().find((element) => box(element).left < edge - 10 && box(element).right > edge + 10)!
    // A plain click event: the test driver's own click would scroll the cell into view first.
    const text = covered.textContent
    covered.dispatchEvent(new MouseEvent('click', { bubbles: true }))
    // The active cell is built anew (it holds the buttons), so it is found again as the focused one.
    await expect.poll(() => document.activeElement?.textContent).toBe(text)
    const rowActions = screen.getByRole('row').nth(3).getByRole('gridcell').last().element()
    expect(box(document.activeElement!).right).toBeLessThanOrEqual(box(rowActions).left + 1)
    expect(box(rowActions).right).toBeLessThanOrEqual(box(grid).left + grid.clientWidth + 1)
  })

  it('gives the active cell the keyboard focus, and keeps it on that row while the row is scrolled away and back', async () => {
    const { screen, details } = await mount(cities(2_000))
    await screen.getByRole('row').nth(3).getByRole('gridcell').nth(4).click()
    await expect.poll(() => document.activeElement?.textContent).toBe('City 3')
    await userEvent.keyboard('{ArrowDown}{ArrowRight}')
    await expect.poll(() => document.activeElement?.textContent).toBe('19970')
    const grid = screen.getByRole('grid', { name: 'Results' }).element() as HTMLElement
    grid.scrollTop = 34 * 895
    await expect.element(screen.getByRole('gridcell', { name: 'City 900', exact: true })).toBeVisible()
    expect(document.activeElement?.textContent).toBe('19970')
    grid.scrollTop = 0
    await expect.element(screen.getByRole('gridcell', { name: 'City 1', exact: true })).toBeVisible()
    expect(document.activeElement?.closest('[role=row]')?.getAttribute('aria-rowindex')).toBe('5')
    await userEvent.keyboard('{Enter}')
    expect(details.map((item) => item.rank)).toEqual([4])
    // A click elsewhere, even on nothing focusable, takes the focus out of the grid for good: scrolling does not take it back.
    const elsewhere = document.body.appendChild(document.createElement('p'))
    elsewhere.textContent = 'Elsewhere'
    await userEvent.click(elsewhere)
    grid.scrollTop = 34 * 895
    await expect.element(screen.getByRole('gridcell', { name: 'City 900', exact: true })).toBeVisible()
    grid.scrollTop = 0
    await expect.element(screen.getByRole('gridcell', { name: 'City 1', exact: true })).toBeVisible()
    expect(grid.contains(document.activeElement)).toBe(false)
    elsewhere.remove()
  })

  it('fits five-digit ranks, and shows a tooltip only on text that is cut off', async () => {
    const { screen } = await mount(cities(10_000))
    const grid = screen.getByRole('grid', { name: 'Results' }).element() as HTMLElement
    grid.scrollTop = grid.scrollHeight
    const rank = screen.getByRole('gridcell', { name: '10000', exact: true })
    await expect.element(rank).toBeVisible()
    const cell = rank.element() as HTMLElement
    expect(cell.scrollWidth).toBeLessThanOrEqual(cell.clientWidth)
    await userEvent.hover(cell)
    expect(cell.hasAttribute('title')).toBe(false)
    await screen.getByRole('columnheader', { name: 'name' }).click()
    for (let i = 0; i < 6; i++) await userEvent.keyboard('{Alt>}{ArrowLeft}{/Alt}')
    const name = screen.getByRole('gridcell', { name: 'City 10000', exact: true })
    await userEvent.hover(name)
    await expect.element(name).toHaveAttribute('title', 'City 10000')
  })

  it('shows a bidi override in a name, an id and an attribute name as a visible escape, and copies the value as sent', async () => {
    const items: ResultItem[] = [
      { rank: 1, probability: 1, tuple: [{ id: '7\u202E01', class: ['file'], attributes: { name: 'Ann\u202Eexe.txt', ['size\u2067']: 3 } }] },
    ]
    const { screen } = await mount(items)
    const row = screen.getByRole('row').nth(1)
    const name = row.getByRole('gridcell').nth(4)
    await expect.element(name).toHaveTextContent('Ann⟨U+202E⟩exe.txt')
    expect(name.element().textContent).not.toContain('\u202E')
    expect(row.getByRole('gridcell').nth(2).element().textContent).toBe('7⟨U+202E⟩01')
    const headers = screen.getByRole('row').first().element().textContent ?? ''
    expect(headers).toContain('size⟨U+2067⟩')
    expect(screen.getByRole('grid', { name: 'Results' }).element().textContent).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    let copied = ''
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } })
    await name.click()
    await screen.getByRole('button', { name: 'Copy cell' }).click()
    expect(copied).toBe('Ann\u202Eexe.txt')
    await expect.element(screen.getByRole('status')).toHaveTextContent('Copied name of row 1')
  })
  it('draws the probability bar beside the digits, never through them, at every probability', async () => {
    const probabilities = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.6, 1]
    const items = cities(probabilities.length).map((item, i) => ({ ...item, probability: probabilities[i]! }))
    for (const theme of ['light', 'dark']) {
      document.documentElement.dataset.theme = theme
      const { screen } = await mount(items, 1200)
      const grid = screen.getByRole('grid', { name: 'Results' })
      await expect.element(grid.getByRole('row').nth(probabilities.length)).toBeVisible()
      const accent = rgbOf(getComputedStyle(document.documentElement).getPropertyValue('--accent'))
      const picture = await pixelsOf(grid.element() as HTMLElement)
      for (const [i, probability] of probabilities.entries()) {
        const cell = grid.getByRole('row').nth(i + 1).getByRole('gridcell').nth(1).element() as HTMLElement
        expect(cell.textContent).toBe(probability.toFixed(4))
        // The marker and the bar are drawn in the accent: none of it may be where the digits are.
        const digits = textBox(cell)
        expect(picture.count(digits, accent), `accent pixels over ${probability.toFixed(4)} (${theme})`).toBe(0)
        // The bar is drawn all the same, in the cell.
        expect(picture.count(cell.getBoundingClientRect(), accent), `the bar of ${probability.toFixed(4)} (${theme})`).toBeGreaterThan(0)
      }
      screen.unmount()
    }
    delete document.documentElement.dataset.theme
  })
})
