import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import RowDetail from '../../src/renderer/components/results/RowDetail.vue'
import type { ResultItem } from '../../src/shared/responses'

/**
 * The row detail: a modal dialog with every field of one result (nested
 * objects opened), each copyable by its path, the whole row as JSON, and
 * Close.
 */

const ITEM = { rank: 3, probability: 0.98765, tuple: [{ id: '71137', class: ['city'], attributes: { name: 'Sanaa', location: { lat: 15.35, lon: 44.2 } } }] } as ResultItem

afterEach(() => {
  document.body.replaceChildren()
})

describe('RowDetail', () => {
  it('shows every field of the row, copies one by its path or the whole row as JSON, and closes', async () => {
    let copied = ''
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } })
    const closes: number[] = []
    const screen = await render(RowDetail, { props: { item: null as ResultItem | null, onClose: () => closes.push(1) } })
    await screen.rerender({ item: ITEM })
    const dialog = screen.getByRole('dialog', { name: 'Row 3' })
    await expect.element(dialog).toBeVisible()
    await expect.element(dialog.getByText('probability 0.9877')).toBeVisible()
    const terms = [...dialog.element().querySelectorAll('dt')].map((term) => term.textContent)
    expect(terms).toEqual(['rank', 'probability', 'tuple', 'id', 'class', 'name', 'location', 'lat', 'lon'])

    await dialog.getByRole('button', { name: 'Copy 1.location.lat' }).click()
    await expect.element(dialog.getByRole('status')).toHaveTextContent('Copied lat')
    expect(copied).toBe('15.35')
    await dialog.getByRole('button', { name: 'Copy as JSON' }).click()
    await expect.element(dialog.getByRole('status')).toHaveTextContent('Copied row 3 as JSON')
    expect(JSON.parse(copied)).toEqual(ITEM)

    await dialog.getByRole('button', { name: 'Close' }).click()
    expect(closes).toEqual([1])
  })
})
