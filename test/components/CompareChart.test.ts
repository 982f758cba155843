import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { Chart } from 'chart.js'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import CompareChart from '../../src/renderer/components/compare/CompareChart.vue'

/**
 * Both sides' distributions in one chart: the cutoffs of either side, lowest
 * first, in the table screen readers get (a dash where a side gives no
 * figure), a legend naming A and B, and the arrow keys stepping the tooltip
 * through the cutoffs, both sides' bars at once.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const A = { name: 'A · Demo · config default', stats: [{ cutoff: '0.9', numResults: 12 }, { cutoff: '0.5', numResults: 840 }, { cutoff: '0.1', numResults: 5628 }] }
const B = { name: 'B · Demo · config production', stats: [{ cutoff: '0.5', numResults: 1200 }, { cutoff: '0.25', numResults: 3000 }, { cutoff: 'x', numResults: 1 }] }

const rowsOf = (table: Element) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent?.trim()))

describe('CompareChart', () => {
  it("gives screen readers both sides' figures at every cutoff either gives, lowest first", async () => {
    const screen = await render(CompareChart, { props: { a: A, b: B } })
    const chart = screen.getByRole('img', { name: 'Probability distributions of A and B' })
    await expect.element(chart).toBeInTheDocument()
    const table = document.getElementById(chart.element().getAttribute('aria-describedby')!)!
    expect(table.querySelector('caption')?.textContent).toBe('Matches at or above each probability cutoff, A and B')
    expect([...table.querySelectorAll('thead th')].map((cell) => cell.textContent)).toEqual(['Cutoff', A.name, B.name])
    expect(rowsOf(table)).toEqual([
      ['≥ 0.1', '5,628', '–'],
      ['≥ 0.25', '–', '3,000'],
      ['≥ 0.5', '840', '1,200'],
      ['≥ 0.9', '12', '–'],
    ])
  })

  it('names the sides in its legend, and steps the tooltip through the cutoffs with the arrow keys', async () => {
    const screen = await render(CompareChart, { props: { a: A, b: B } })
    const canvas = screen.getByRole('img', { name: 'Probability distributions of A and B' }).element() as HTMLCanvasElement
    await expect.poll(() => Chart.getChart(canvas)).toBeDefined()
    const drawn = Chart.getChart(canvas)!
    expect(drawn.data.datasets.map((set) => set.label)).toEqual([A.name, B.name])
    expect(drawn.data.labels).toEqual(['≥ 0.1', '≥ 0.25', '≥ 0.5', '≥ 0.9'])
    expect(drawn.data.datasets.map((set) => set.data)).toEqual([[5628, null, 840, 12], [null, 3000, 1200, null]])

    const active = () => drawn.tooltip?.getActiveElements().map((element) => [element.datasetIndex, element.index])
    ;(canvas.parentElement as HTMLElement).focus()
    await expect.poll(active).toEqual([[0, 0], [1, 0]])
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    await expect.poll(active).toEqual([[0, 2], [1, 2]])
    await userEvent.keyboard('{ArrowLeft}')
    await expect.poll(active).toEqual([[0, 1], [1, 1]])
  })
})
