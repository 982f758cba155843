import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { Chart } from 'chart.js'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import { whenText } from '../../src/renderer/components/experiments/experiment-format'
import { DEFAULT_TARGET, FRESH_TARGET, KEPT, TREND_EXPERIMENT } from '../fixtures/kept-trend'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow, NOTHING_KEPT } from './mount-with-bridge'

/**
 * The trend's chart (useExperimentTrendChart, drawn by ExperimentTrend): an
 * evaluation a place on the x axis in the order they ran, one line per
 * target that joins its own points across the others', in the target's
 * theme colour and mark, and the arrow keys walking the evaluations in time,
 * each showing its own point's tooltip.
 */

const fake = bridgeForFile()

async function mount() {
  const pinia = demoWindow(fake, NOTHING_KEPT)
  const [{ default: ExperimentTrend }, { useExperimentsStore }, { useEvaluationsStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentTrend.vue'),
    import('../../src/renderer/stores/experiments'),
    import('../../src/renderer/stores/evaluations'),
  ])
  const experiments = useExperimentsStore(pinia)
  const evaluations = useEvaluationsStore(pinia)
  await settle()
  experiments.shown = TREND_EXPERIMENT
  evaluations.kept = KEPT
  const screen = await render(ExperimentTrend, { global: { plugins: [pinia] } })
  const canvas = screen.getByRole('img').element() as HTMLCanvasElement
  await expect.poll(() => Chart.getChart(canvas)).toBeDefined()
  return { canvas, chart: Chart.getChart(canvas)! }
}

const theme = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

describe('ExperimentTrendChart', () => {
  it('draws one line per target over the evaluations in the order they ran, joining a target\'s points across the others\'', async () => {
    const { chart } = await mount()
    const times = ['e1', 'e2', 'e3', 'e4'].map((id) => whenText(KEPT.find((entry) => entry.id === id)!.at, { seconds: true }))
    expect(chart.data.labels).toEqual(times)
    expect(chart.data.datasets.map((set) => [set.label, set.data])).toEqual([
      [DEFAULT_TARGET, [0.6, 0.7, null, 0.8]],
      [FRESH_TARGET, [null, null, 0.65, null]],
    ])
    expect(chart.data.datasets.map((set) => (set as { spanGaps?: boolean }).spanGaps)).toEqual([true, true])
    expect(chart.data.datasets.map((set) => [(set as { borderColor?: string }).borderColor, (set as { pointStyle?: string }).pointStyle])).toEqual([
      [theme('--accent'), 'circle'],
      [theme('--warn'), 'triangle'],
    ])
  })

  it("walks the evaluations with the arrow keys, each showing its own point's tooltip", async () => {
    const { canvas, chart } = await mount()
    const active = () => chart.tooltip?.getActiveElements().map((element) => [element.datasetIndex, element.index])
    ;(canvas.parentElement as HTMLElement).focus()
    await expect.poll(active).toEqual([[0, 0]])
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    // The third ran on the fresh config: its own line's point.
    await expect.poll(active).toEqual([[1, 2]])
    await userEvent.keyboard('{ArrowRight}')
    await expect.poll(active).toEqual([[0, 3]])
  })
})
