import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { defineComponent, h } from 'vue'
import GridRow from '../../src/renderer/components/results/GridRow.vue'
import type { ResultItem } from '../../src/shared/responses'
import { columnsFor, ratingColumn, withRatingColumn } from '../../src/shared/results/table'

/**
 * One grid row: a cell per column with its text, a long or nested value
 * with a button to open it in the row detail, the active cell focusable with
 * Copy cell, a rating column's grade in words, and the row's Details and
 * Copy row, each named with the row's rank.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const ITEM = {
  rank: 4, probability: 0.5, tuple: [{ id: '71137', class: ['city'], attributes: { name: 'Sanaa', notes: 'x'.repeat(100), location: { lat: 15.35 } } }],
} as ResultItem

function mount(activeColumn: number | null, grades: Map<string, number> = new Map()) {
  const columns = withRatingColumn(columnsFor([ITEM]), ratingColumn(grades, [{ grade: 0, label: 'Poor' }, { grade: 3, label: 'Perfect' }]))
  const Grid = defineComponent(() => () => h('div', { role: 'grid', 'aria-label': 'Results' }, [
    h(GridRow, { item: ITEM, index: 0, offset: null, columns, cellClasses: columns.map(() => ''), activeColumn }),
  ]))
  return { columns, screen: render(Grid) }
}

describe('GridRow', () => {
  it('shows a cell per column, a button to open what a cell cannot show whole, and the row’s own actions', async () => {
    const { columns, screen } = mount(null, new Map([['71137', 3]]))
    const cells = (await screen).getByRole('gridcell')
    const texts = cells.elements().map((cell) => cell.textContent?.trim())
    expect(texts.length).toBe(columns.length + 1)
    const at = (key: string) => columns.findIndex((column) => column.key === key)
    expect(texts[at('rank')]).toBe('4')
    expect(texts[at('rating')]).toBe('3 Perfect')
    expect(texts[at('1.name')]).toBe('Sanaa')
    const row = (await screen).getByRole('row')
    await expect.element(row.getByRole('button', { name: 'Open notes of row 4' })).toBeInTheDocument()
    await expect.element(row.getByRole('button', { name: 'Open location of row 4' })).toBeInTheDocument()
    expect(row.getByRole('button', { name: 'Open name of row 4' }).elements()).toHaveLength(0)
    await expect.element(row.getByRole('button', { name: 'Details of row 4' })).toBeInTheDocument()
    await expect.element(row.getByRole('button', { name: 'Copy row 4' })).toBeInTheDocument()
    expect(row.getByRole('button', { name: 'Copy cell' }).elements()).toHaveLength(0)
  })

  it('makes the active cell the focusable one, with Copy cell', async () => {
    const { screen } = mount(2)
    const cells = (await screen).getByRole('gridcell').elements()
    expect(cells.filter((cell) => cell.getAttribute('tabindex') === '0')).toEqual([cells[2]])
    await expect.element((await screen).getByRole('row').getByRole('button', { name: 'Copy cell' })).toBeInTheDocument()
  })
})
