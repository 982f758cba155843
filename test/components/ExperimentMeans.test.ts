import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { ExperimentRecord, MetricComparison } from '../../src/shared/experiments/experiment-record'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow, NOTHING_KEPT } from './mount-with-bridge'

/**
 * The means table's words, from a hand-made experiment: each metric's row
 * says "significant" or "not significant" from the Holm-adjusted p (not the
 * raw one), the adjusted p's column says over how many comparisons Holm
 * corrected, Δ carries its sign, and the compared side can be changed when
 * there are several.
 */

const fake = bridgeForFile()

const comparison = (metric: string, other: number, figures: Partial<MetricComparison>): MetricComparison => ({
  metric, other, baselineMean: 0.5, otherMean: 0.5, n: 36, meanDelta: 0, wins: 0, ties: 36, losses: 0,
  p: 1, method: 'exact', permutations: 0, pAdjusted: 1, interval: [0, 0], significant: false, ...figures,
})

function record(sides: number): ExperimentRecord {
  const comparisons = [
    comparison('ndcg@10', 0, { baselineMean: 0.607, otherMean: 0.952, meanDelta: 0.3444, wins: 27, ties: 8, losses: 1, p: 0.0001, pAdjusted: 0.0004, interval: [0.254, 0.437], significant: true }),
    // Below 0.05 before Holm's adjustment, above after it: not significant.
    comparison('p@10', 0, { baselineMean: 0.542, otherMean: 0.658, meanDelta: 0.117, wins: 8, ties: 25, losses: 3, p: 0.025, pAdjusted: 0.07, interval: [0.036, 0.211] }),
  ]
  if (sides > 2) {
    comparisons.push(
      comparison('ndcg@10', 1, { baselineMean: 0.607, otherMean: 0.5, meanDelta: -0.107, wins: 2, ties: 20, losses: 14, p: 0.2, pAdjusted: 0.6, interval: [-0.2, 0.01] }),
      comparison('p@10', 1, { n: 0, baselineMean: null, otherMean: null, meanDelta: null, ties: 0, p: null, pAdjusted: null, interval: null, method: null }),
    )
  }
  const side = (label: string, index: number) => ({ label, target: { connectionId: 'c1', config: label }, evaluationId: `e${index}`, means: {} })
  return {
    id: 'x1', set: 'World cities', workspace: 'world', at: '2026-01-02T10:00:00.000Z', depth: 100, judgeDepth: 10,
    settings: { gain: 'exponential', unjudged: 'zero', threshold: 1 }, scale: [{ grade: 0, label: 'Poor' }, { grade: 1, label: 'Fair' }],
    sides: ['Demo, config default', 'Demo, config production', 'Demo, config fresh'].slice(0, sides).map(side),
    attribution: [],
    stats: { metrics: ['ndcg@10', 'p@10'], alpha: 0.05, family: sides > 2 ? 3 : 2, comparisons, deltas: {}, failed: [] },
    state: 'done', durationMs: 1200, reused: 0,
  } as ExperimentRecord
}

async function mount(sides = 2) {
  const pinia = demoWindow(fake, NOTHING_KEPT)
  const [{ default: ExperimentMeans }, { useExperimentsStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentMeans.vue'),
    import('../../src/renderer/stores/experiments'),
  ])
  const store = useExperimentsStore(pinia)
  // The store's first look at the kept list (no set chosen) is over before the record is put in.
  await settle()
  store.shown = record(sides)
  const screen = await render(ExperimentMeans, { global: { plugins: [pinia] } })
  return { screen, store }
}

/** A metric's row: a row is named by its cells, the metric's first. */
const row = (screen: Awaited<ReturnType<typeof mount>>['screen'], metric: string) => screen.getByRole('row', { name: new RegExp(`^${metric} `) })

describe('ExperimentMeans', () => {
  it('says significant or not significant by the Holm-adjusted p, and over how many comparisons Holm corrected', async () => {
    const { screen } = await mount()
    const table = screen.getByRole('table', { name: 'Means of A and B, the difference and whether it is significant' })
    await expect.element(table).toBeVisible()
    await expect.element(table.getByRole('columnheader', { name: 'p, Holm over 2' })).toBeVisible()

    const ndcg = row(screen, 'nDCG@10')
    await expect.element(ndcg).toBeVisible()
    expect(ndcg.getByRole('cell').elements().map((cell) => cell.textContent?.trim())).toEqual(['0.607', '0.952', '+0.344', '[0.254, 0.437]', '27 / 8 / 1', '< 0.001', '< 0.001', 'significant'])

    const precision = row(screen, 'P@10')
    // p 0.025 is below 0.05, but not once adjusted (0.070): the words follow the adjusted p.
    expect(precision.getByRole('cell').elements().map((cell) => cell.textContent?.trim())).toEqual(['0.542', '0.658', '+0.117', '[0.036, 0.211]', '8 / 25 / 3', '0.025', '0.070', 'not significant'])
    expect(precision.getByRole('cell').last().element().className).toContain('exp__verdict--not')
    expect(ndcg.getByRole('cell').last().element().className).toContain('exp__verdict--significant')
    await expect.element(screen.getByText(/adjusted by Holm's method over every comparison/)).toBeVisible()
    // How the grades were read, beside the figures: the set is not at hand, so which grade of several raters' is said.
    await expect.element(screen.getByText(/^grade: mean of the raters' grades · exponential gain/)).toBeVisible()
    // One other side: nothing to choose.
    expect(screen.getByRole('combobox', { name: 'Compared side' }).elements()).toHaveLength(0)
  })

  it('picks a metric from its row, and the compared side when there are several; no paired query says so', async () => {
    const { screen, store } = await mount(3)
    const pick = (metric: string) => screen.getByRole('button', { name: metric, exact: true })
    await expect.element(pick('nDCG@10')).toHaveAttribute('aria-pressed', 'true')
    await pick('P@10').click()
    await expect.element(pick('P@10')).toHaveAttribute('aria-pressed', 'true')
    await expect.element(pick('nDCG@10')).toHaveAttribute('aria-pressed', 'false')
    expect(store.shownMetric).toBe('p@10')

    await expect.element(screen.getByRole('columnheader', { name: 'p, Holm over 3' })).toBeVisible()
    await screen.getByRole('combobox', { name: 'Compared side' }).selectOptions('C: Demo, config fresh')
    expect(store.other).toBe(1)
    await expect.element(screen.getByRole('table', { name: /^Means of A and C/ })).toBeVisible()
    const ndcg = row(screen, 'nDCG@10')
    await expect.element(ndcg).toHaveTextContent('−0.107')
    await expect.element(ndcg).toHaveTextContent('[−0.200, 0.010]')
    await expect.element(ndcg.getByRole('cell').last()).toHaveTextContent('not significant')
    await expect.element(row(screen, 'P@10').getByRole('cell').last()).toHaveTextContent('no paired query')
  })
})
