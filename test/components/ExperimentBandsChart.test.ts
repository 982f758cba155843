import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { Chart } from 'chart.js'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import ExperimentBandsChart from '../../src/renderer/components/experiments/ExperimentBandsChart.vue'

/**
 * The mean grade of a side's judged results in each probability band: the
 * bands named "0.6–0.7" in the table screen readers get (a dash where none
 * is judged, and no bar), the y axis from 0 to the scale's top grade, and
 * the tooltip giving the grade and how many of the band's results are judged.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const BANDS = [
  { from: 0.6, to: 0.7, items: 5, judged: 0, meanGrade: null },
  { from: 0.7, to: 0.8, items: 40, judged: 30, meanGrade: 1.5 },
  { from: 0.8, to: 0.9, items: 12, judged: 12, meanGrade: 2.916 },
]

const rowsOf = (table: Element) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent?.trim()))

describe('ExperimentBandsChart', () => {
  it('names each band, its results, those judged and their mean grade, on an axis up to the top grade', async () => {
    const screen = await render(ExperimentBandsChart, { props: { bands: BANDS, maxGrade: 3, side: 'B' } })
    const canvas = screen.getByRole('img', { name: "Mean grade of B's judged results in each probability band" }).element() as HTMLCanvasElement
    expect(rowsOf(document.getElementById(canvas.getAttribute('aria-describedby')!)!)).toEqual([
      ['0.6–0.7', '5', '0', '—'],
      ['0.7–0.8', '40', '30', '1.50'],
      ['0.8–0.9', '12', '12', '2.92'],
    ])
    await expect.poll(() => Chart.getChart(canvas)).toBeDefined()
    const chart = Chart.getChart(canvas)!
    expect(chart.data.datasets[0]!.data).toEqual([null, 1.5, 2.916])
    expect([chart.scales.y!.min, chart.scales.y!.max]).toEqual([0, 3])

    ;(canvas.parentElement as HTMLElement).focus()
    await userEvent.keyboard('{ArrowRight}')
    await expect.poll(() => chart.tooltip?.getActiveElements().map((element) => element.index)).toEqual([1])
    expect(chart.tooltip?.body?.flatMap((line) => line.lines)).toEqual(['Mean grade 1.50', '30 judged of 40 results'])
  })
})
