import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { ExperimentRecord } from '../../src/shared/experiments/experiment-record'
import { TREND_EXPERIMENT } from '../fixtures/kept-trend'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow, NOTHING_KEPT } from './mount-with-bridge'

/**
 * Per-step attribution: each cut of the template with its means, and from
 * the second on the change from the cut before, signed; a dash where a cut
 * has no figure (and no change beside it).
 */

const fake = bridgeForFile()

const RECORD = {
  ...TREND_EXPERIMENT,
  stats: { ...TREND_EXPERIMENT.stats, metrics: ['ndcg@10', 'p@10'] },
  attribution: [
    { label: '1: search', steps: 1, evaluationId: 'a1', means: { 'ndcg@10': 0.5, 'p@10': 0.4 } },
    { label: '1–2: + country:FILTER', steps: 2, evaluationId: 'a2', means: { 'ndcg@10': 0.62, 'p@10': 0.35 } },
    { label: '1–3: + population', steps: 3, evaluationId: 'a3', means: { 'ndcg@10': 0.62, 'p@10': null } },
  ],
} as ExperimentRecord

describe('ExperimentAttribution', () => {
  it("gives each cut's means and, from the second, the change from the cut before", async () => {
    const pinia = demoWindow(fake, NOTHING_KEPT)
    const [{ default: ExperimentAttribution }, { useExperimentsStore }] = await Promise.all([
      import('../../src/renderer/components/experiments/ExperimentAttribution.vue'),
      import('../../src/renderer/stores/experiments'),
    ])
    const experiments = useExperimentsStore(pinia)
    await settle()
    experiments.shown = RECORD
    const screen = await render(ExperimentAttribution, { global: { plugins: [pinia] } })
    const table = screen.getByRole('table', { name: 'What each step of the template adds, on A' })
    await expect.element(table).toBeVisible()
    expect(table.getByRole('columnheader').elements().map((cell) => cell.textContent?.trim())).toEqual(['Steps', 'nDCG@10', 'P@10'])
    const rows = table.getByRole('row').elements().slice(1).map((row) => [...row.children].map((cell) => cell.textContent?.replace(/\s+/g, ' ').trim()))
    expect(rows).toEqual([
      ['1: search', '0.500', '0.400'],
      ['1–2: + country:FILTER', '0.620 (+0.120)', '0.350 (\u22120.050)'],
      ['1–3: + population', '0.620 (0.000)', '— (—)'],
    ])
  })
})
