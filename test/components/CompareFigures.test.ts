import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import CompareFigures from '../../src/renderer/components/compare/CompareFigures.vue'
import { answeredSide, comparison } from '../../src/shared/compare/comparison'

/**
 * The compare view's figures, found by the names assistive technology reads:
 * when both sides return fewer items than the depth, overlap says how many
 * could be shared and why, and Jaccard and RBO say what they were computed over.
 */

const city = (id: string) => ({ rank: 1, probability: 1, tuple: [{ id, class: ['city'], attributes: { name: `City ${id}` } }] })
const reply = (ids: string[]) => ({ status: 200, body: [{ items: ids.map(city) }, { total: ids.length, stats: [] }] })

describe('CompareFigures', () => {
  it('says "9 of 9 (both sides returned only 9)" at depth 50, not "9 of 50", and what the other figures cover', async () => {
    const nine = Array.from({ length: 9 }, (_, index) => String(3109718 + index))
    const result = comparison(50, answeredSide('Demo · config default', reply(nine), 12, 50), answeredSide('Demo · config production', reply(nine), 15, 50))
    const screen = await render(CompareFigures, { props: { result } })
    const figures = screen.getByRole('list', { name: 'Figures' })
    await expect.element(figures.getByRole('listitem', { name: 'Overlap@50 9 of 9 (both sides returned only 9)' })).toBeVisible()
    expect(figures.element().textContent).not.toContain('9 of 50')
    await expect.element(figures.getByRole('listitem', { name: /^Jaccard@50 1\.000$/ })).toHaveAccessibleDescription(/Computed over the 9 items each side returned\.$/)
    await expect.element(figures.getByRole('listitem', { name: /^RBO 1\.000$/ })).toHaveAccessibleDescription(/Computed over the 9 items each side returned\.$/)
  })

  it('keeps "3 of 10" when both sides fill the depth', async () => {
    const a = Array.from({ length: 10 }, (_, index) => `a${index}`)
    const b = [...a.slice(0, 3), ...Array.from({ length: 7 }, (_, index) => `b${index}`)]
    const result = comparison(10, answeredSide('A', reply(a), 1, 10), answeredSide('B', reply(b), 1, 10))
    const screen = await render(CompareFigures, { props: { result } })
    await expect.element(screen.getByRole('listitem', { name: 'Overlap@10 3 of 10' })).toHaveAccessibleDescription("How many of A's top 10 are also in B's top 10.")
  })
})
