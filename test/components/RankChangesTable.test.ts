import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import RankChangesTable from '../../src/renderer/components/compare/RankChangesTable.vue'
import { answeredSide, comparison } from '../../src/shared/compare/comparison'

/**
 * The rank diff as a table: each item by its name (its key beside it where
 * the two differ), its rank on each side (a dash where it is not in that
 * top), its move in words for those who cannot see the arrow, and a summary
 * of how many moved, came and went.
 */

const city = (id: string) => ({ rank: 1, probability: 1, tuple: [{ id, class: ['city'], attributes: { name: `City ${id}` } }] })
const reply = (ids: string[]) => ({ status: 200, body: [{ items: ids.map(city) }, { total: ids.length, stats: [] }] })

const rowsOf = (table: Element) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent?.replace(/\s+/g, ' ').trim()))

describe('RankChangesTable', () => {
  it('gives each item its rank on both sides and its move, and sums up the changes', async () => {
    // A: 1 2 3 4; B: 2 1 3 5 — 1 and 2 swap, 3 stays, 4 goes, 5 comes.
    const result = comparison(4, answeredSide('A', reply(['1', '2', '3', '4']), 1, 4), answeredSide('B', reply(['2', '1', '3', '5']), 1, 4))
    const screen = await render(RankChangesTable, { props: { result } })
    const table = screen.getByRole('table', { name: 'Rank changes' })
    await expect.element(table).toBeVisible()
    await expect.element(screen.getByText('top 4: 2 moved, 1 new in B, 1 gone from B')).toBeVisible()
    const rows = rowsOf(table.element())
    expect(rows.map((row) => [row[0], row[1], row[2]]).sort()).toEqual([
      ['City 1 1', '1', '2'],
      ['City 2 2', '2', '1'],
      ['City 3 3', '3', '3'],
      ['City 4 4', '4', '–'],
      ['City 5 5', '–', '4'],
    ])
    const titles = [...table.element().querySelectorAll('tbody tr')].map((row) => [row.querySelector('th')!.textContent!.trim().split(/\s+/)[1], row.querySelector('[title]')?.getAttribute('title')])
    expect(Object.fromEntries(titles)).toEqual({ 1: 'Down 1 place in B', 2: 'Up 1 place in B', 3: 'The same rank in both', 4: "In A's top only", 5: "In B's top only" })
  })
})
