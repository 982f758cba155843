import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { whenText } from '../../src/renderer/components/experiments/experiment-format'
import { experimentSummary, type ExperimentRecord } from '../../src/shared/experiments/experiment-record'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import { TREND_EXPERIMENT } from '../fixtures/kept-trend'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Experiments view's frame: with no set it says how to start; with a
 * kept experiment, the newest is shown, named in the picker by when it ran,
 * its sides (what differs between their labels) and how many comparisons
 * were significant, with what it ran as; its parts follow (per-step
 * attribution only when it was asked for).
 */

const fake = bridgeForFile()

const SET: QuerySet = { name: 'World cities', query: 'City search', queries: [{ id: 'q01', text: 'paris' }], judgments: [] }
const view = (sets: QuerySet[]) => ({ name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], sets: sets.map(setSummary), bindings: [] }) as WorkspaceView

const RECORD = {
  ...TREND_EXPERIMENT,
  depth: 100, durationMs: 1234, reused: 3,
  sides: [
    { label: 'Demo, config default', target: { connectionId: 'c1' }, evaluationId: 'e-a', means: {} },
    { label: 'Demo, config production', target: { connectionId: 'c1', config: 'production' }, evaluationId: 'e-b', means: {} },
  ],
} as ExperimentRecord

async function mount(sets: QuerySet[]) {
  const pinia = demoWindow(fake, {
    'sets:get': SET, 'eval:list': [], 'experiments:list': [{ ...experimentSummary(RECORD), significant: 1, comparisons: 2 }], 'experiments:get': RECORD,
    'eval:probability': { hasProbabilities: false, bands: [], cutoff: null },
  })
  const [{ default: ExperimentsView }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentsView.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(view(sets))
  const screen = await render(ExperimentsView, { global: { plugins: [pinia] } })
  return screen.getByRole('region', { name: 'Experiments' })
}

describe('ExperimentsView', () => {
  it('shows the newest kept experiment, named by when, its sides and what was significant, with its parts', async () => {
    const region = await mount([SET])
    const picker = region.getByRole('combobox', { name: 'Kept experiment' })
    await expect.element(picker).toHaveDisplayValue(`${whenText(RECORD.at)} · A default vs B production · 1 of 2 significant`)
    await expect.element(region.getByText('2 sides · depth 100 · α 0.05 · 1.2 s · 3 pages reused within the run')).toBeVisible()
    for (const name of ['Means', 'nDCG@10 of each query: B against A', 'Probability against grade', 'History of nDCG@10']) {
      await expect.element(region.getByRole('region', { name })).toBeVisible()
    }
    // No attribution was asked for.
    expect(region.getByRole('region', { name: 'Per-step attribution' }).elements()).toHaveLength(0)
    expect(fake.calls.filter((call) => call.channel === 'experiments:get').map((call) => call.request)).toEqual([{ id: 'x1' }])
  })

  it('with no set says how to start', async () => {
    const region = await mount([])
    await expect.element(region.getByText('No query set in this workspace yet.')).toBeVisible()
  })

  it('shortens side labels to what differs, whole words, and keeps them when that would leave nothing', async () => {
    // Imported here: the window's client keeps the bridge it finds first, which the other tests put in place.
    const { shortLabels } = await import('../../src/renderer/components/experiments/useExperimentsView')
    expect(shortLabels(['Demo, config default', 'Demo, config production'])).toEqual(['default', 'production'])
    expect(shortLabels(['Demo, config default', 'Demo, config defaults'])).toEqual(['default', 'defaults'])
    expect(shortLabels(['Demo', 'Demo, config fresh'])).toEqual(['Demo', 'Demo, config fresh'])
    expect(shortLabels(['Only one'])).toEqual(['Only one'])
  })
})
