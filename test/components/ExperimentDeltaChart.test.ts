import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { Chart } from 'chart.js'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import ExperimentDeltaChart from '../../src/renderer/components/experiments/ExperimentDeltaChart.vue'
import type { QueryDelta } from '../../src/shared/experiments/experiment-record'

/**
 * Each paired query's delta, largest win first: wins, ties and losses
 * counted in the caption, queries without a delta left out and counted, the
 * y axis symmetric around 0 at the first round reach that holds every delta,
 * bars coloured by outcome, and the arrow keys walking the bars.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const delta = (text: string, value: number | null): QueryDelta => ({ id: text, text, baseline: 0.5, other: value === null ? null : 0.5 + value, delta: value, unjudged: 0, failed: value === null ? 'other' : null })
const DELTAS = [delta('rome', -0.12), delta('paris', 0.3), delta('lima', 0), delta('oslo', null), delta('quito', 0.05)]

async function mount(deltas = DELTAS) {
  const screen = await render(ExperimentDeltaChart, { props: { deltas, label: 'nDCG@10', other: 'B' } })
  const canvas = screen.getByRole('img', { name: 'nDCG@10: B − A for each query, largest win first' })
  await expect.element(canvas).toBeInTheDocument()
  await expect.poll(() => Chart.getChart(canvas.element() as HTMLCanvasElement)).toBeDefined()
  return { screen, canvas: canvas.element() as HTMLCanvasElement, chart: Chart.getChart(canvas.element() as HTMLCanvasElement)! }
}

const rowsOf = (table: Element) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent?.trim()))
const theme = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

describe('ExperimentDeltaChart', () => {
  it('lists the deltas largest win first, counts wins, ties and losses, and counts those left out', async () => {
    const { screen, canvas } = await mount()
    expect(rowsOf(document.getElementById(canvas.getAttribute('aria-describedby')!)!)).toEqual([
      ['paris', '+0.300', 'win'],
      ['quito', '+0.050', 'win'],
      ['lima', '0.000', 'tie'],
      ['rome', '\u22120.120', 'loss'],
    ])
    const caption = screen.getByRole('figure')
    await expect.element(caption).toHaveTextContent('2 B wins')
    await expect.element(caption).toHaveTextContent('1 tie')
    await expect.element(caption).toHaveTextContent('1 loss')
    await expect.element(caption).toHaveTextContent('· 1 without a delta (failed or not judged on a side) left out')
  })

  it('colours the bars by outcome on an axis symmetric around 0, and walks them with the arrow keys', async () => {
    const { chart, canvas } = await mount()
    // The largest delta is 0.3: the first reach that holds it is 0.5.
    expect([chart.scales.y!.min, chart.scales.y!.max]).toEqual([-0.5, 0.5])
    const fill = chart.data.datasets[0]!.backgroundColor as string[]
    expect(fill[0]).toBe(theme('--ok'))
    expect(fill[3]).toBe(theme('--danger'))
    expect(fill[2]).not.toBe(fill[0])
    expect(fill[2]).not.toBe(fill[3])

    const active = () => chart.tooltip?.getActiveElements().map((element) => element.index)
    ;(canvas.parentElement as HTMLElement).focus()
    await expect.poll(active).toEqual([0])
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}')
    await expect.poll(active).toEqual([3])
  })

  it('takes a reach of 0.05 for small deltas, and says "wins" and "ties" in the plural', async () => {
    const { chart, screen } = await mount([delta('a', 0.01), delta('b', -0.04), delta('c', 0), delta('d', 0)])
    expect([chart.scales.y!.min, chart.scales.y!.max]).toEqual([-0.05, 0.05])
    await expect.element(screen.getByRole('figure')).toHaveTextContent('1 B win')
    await expect.element(screen.getByRole('figure')).toHaveTextContent('2 ties')
    expect(screen.getByRole('figure').element().textContent).not.toContain('left out')
  })
})
