import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { Chart } from 'chart.js'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import DistributionChart from '../../src/renderer/components/statistics-answer/DistributionChart.vue'

/**
 * The distribution chart: a bar per cutoff, the one the chain's cutoff
 * chooses drawn apart from the others (and following a new cutoff), a
 * tooltip of the count that the arrow keys move from bar to bar, wrapping.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const POINTS = [{ cutoff: 0.1, label: '0.1', numResults: 5628 }, { cutoff: 0.5, label: '0.5', numResults: 840 }, { cutoff: 0.9, label: '0.9', numResults: 12 }]

async function mount(cutoff: number | null) {
  const screen = await render(DistributionChart, { props: { points: POINTS, cutoff } })
  const canvas = screen.getByRole('img', { name: 'Probability distribution' }).element() as HTMLCanvasElement
  await expect.poll(() => Chart.getChart(canvas)).toBeDefined()
  return { screen, canvas, chart: Chart.getChart(canvas)! }
}

const fills = (chart: Chart) => chart.data.datasets[0]!.backgroundColor as string[]

describe('DistributionChart', () => {
  it('draws the bar of the chosen cutoff apart from the others, and follows a new cutoff', async () => {
    const { screen, chart } = await mount(0.5)
    expect(chart.data.labels).toEqual(['≥ 0.1', '≥ 0.5', '≥ 0.9'])
    expect(chart.data.datasets[0]!.data).toEqual([5628, 840, 12])
    const [low, chosen, high] = fills(chart)
    expect(chosen).not.toBe(low)
    expect(high).toBe(low)

    await screen.rerender({ points: POINTS, cutoff: 0.9 })
    await expect.poll(() => fills(Chart.getChart(chart.canvas)!)[2]).toBe(chosen)
    expect(fills(Chart.getChart(chart.canvas)!)[1]).toBe(low)
  })

  it("moves the count's tooltip from bar to bar with the arrow keys", async () => {
    const { canvas, chart } = await mount(null)
    const active = () => chart.tooltip?.getActiveElements().map((element) => element.index)
    ;(canvas.parentElement as HTMLElement).focus()
    await expect.poll(active).toEqual([0])
    expect(chart.tooltip?.body?.flatMap((line) => line.lines)).toEqual(['5,628 results'])
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    await expect.poll(active).toEqual([2])
    // Past the last bar, back to the first.
    await userEvent.keyboard('{ArrowRight}')
    await expect.poll(active).toEqual([0])
  })
})
