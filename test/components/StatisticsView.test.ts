import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import StatisticsView from '../../src/renderer/components/statistics-answer/StatisticsView.vue'

/**
 * A statistics answer as every view of it shows it: the total in grouped
 * digits with the cutoff it is read at, and the cutoffs lowest first, a
 * cutoff that is not a number left out.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const BODY = { total: 5628, stats: [{ cutoff: '0.9', numResults: 12 }, { cutoff: '', numResults: 3 }, { cutoff: '0.1', numResults: 5628 }, { cutoff: '0.5', numResults: 840 }] }

describe('StatisticsView', () => {
  it('gives the total at the cutoff, and the cutoffs lowest first', async () => {
    const screen = await render(StatisticsView, { props: { statistics: BODY, cutoff: 0.5 as number | null, tableShown: true } })
    await expect.element(screen.getByText('5,628', { exact: true }).first()).toBeVisible()
    await expect.element(screen.getByText('matches at cutoff ≥ 0.5')).toBeVisible()
    const table = screen.getByRole('table', { name: 'Matches at or above each probability cutoff' })
    expect(table.getByRole('row').elements().slice(1).map((row) => [...row.children].map((cell) => cell.textContent?.trim()))).toEqual([
      ['≥ 0.1', '5,628'],
      ['≥ 0.5', '840'],
      ['≥ 0.9', '12'],
    ])
    await screen.rerender({ statistics: BODY, cutoff: null, tableShown: true })
    await expect.element(screen.getByText('matches', { exact: true })).toBeVisible()
  })
})
