import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { whenText } from '../../src/renderer/components/experiments/experiment-format'
import { DEFAULT_TARGET, FRESH_TARGET, KEPT, TREND_EXPERIMENT } from '../fixtures/kept-trend'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow, NOTHING_KEPT } from './mount-with-bridge'

/**
 * The Experiments view's History in words: the kept evaluations oldest
 * first with the metric's mean of each (a cancelled one marked), the targets
 * each with its own mark, and the kept ones that can't be set beside the
 * newest, with why; with none kept, it says so.
 */

const fake = bridgeForFile()

async function mount(kept = KEPT) {
  const pinia = demoWindow(fake, NOTHING_KEPT)
  const [{ default: ExperimentTrend }, { useExperimentsStore }, { useEvaluationsStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentTrend.vue'),
    import('../../src/renderer/stores/experiments'),
    import('../../src/renderer/stores/evaluations'),
  ])
  useExperimentsStore(pinia)
  const evaluations = useEvaluationsStore(pinia)
  // The stores' first look at the kept lists (no set chosen) is over before the records are put in.
  await settle()
  useExperimentsStore(pinia).shown = TREND_EXPERIMENT
  evaluations.kept = kept
  return render(ExperimentTrend, { global: { plugins: [pinia] } })
}

const rowsOf = (table: Element) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent?.trim()))
const at = (id: string) => KEPT.find((entry) => entry.id === id)!.at

describe('ExperimentTrend', () => {
  it("lists the kept evaluations oldest first with the metric's mean, and each target with its mark", async () => {
    const screen = await mount()
    const chart = screen.getByRole('img', { name: 'nDCG@10 of each kept evaluation of the set, oldest first, one line per target' })
    await expect.element(chart).toBeInTheDocument()
    const table = document.getElementById(chart.element().getAttribute('aria-describedby')!)!
    expect(rowsOf(table)).toEqual([
      [whenText(at('e1'), { seconds: true }), DEFAULT_TARGET, '0.600'],
      [whenText(at('e2'), { seconds: true }), DEFAULT_TARGET, '0.700'],
      [whenText(at('e3'), { seconds: true }), FRESH_TARGET, '0.650 (cancelled)'],
      [whenText(at('e4'), { seconds: true }), DEFAULT_TARGET, '0.800'],
    ])
    const targets = screen.getByRole('list', { name: 'Targets' }).getByRole('listitem')
    expect(targets.elements().map((item) => item.textContent)).toEqual([`●${DEFAULT_TARGET}`, `▲${FRESH_TARGET}`])
  })

  it('names the kept evaluations not comparable with the newest, newest first, with why', async () => {
    const screen = await mount()
    const newest = `${whenText(at('e4'))} · ${DEFAULT_TARGET}`
    await expect.element(screen.getByRole('heading', { name: `Not comparable with the newest (${newest})` })).toBeVisible()
    const why = screen.getByRole('list', { name: 'Not comparable with the newest' }).getByRole('listitem')
    expect(why.elements().map((item) => item.textContent)).toEqual([`${whenText(at('e1'))} · ${DEFAULT_TARGET}: not comparable: they ran to different depths (100, 50).`])
  })

  it('says when every kept one is comparable, and when none is kept', async () => {
    const comparable = await mount(KEPT.slice(0, 3))
    await expect.element(comparable.getByText(`Every kept evaluation is comparable with the newest (${whenText(at('e4'))} · ${DEFAULT_TARGET}).`)).toBeVisible()
    comparable.unmount()
    const none = await mount([])
    await expect.element(none.getByText('No evaluation of this set is kept yet.')).toBeVisible()
    // The chart is hidden, out of what a screen reader is given.
    expect(none.getByRole('img').elements()).toHaveLength(0)
  })
})
