import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { ExperimentRecord } from '../../src/shared/experiments/experiment-record'
import { TREND_EXPERIMENT } from '../fixtures/kept-trend'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow, NOTHING_KEPT } from './mount-with-bridge'

/**
 * Probability against grade for one side of the experiment shown: main is
 * asked for the side's bands and the cutoff keeping 90 % of the relevant
 * results (grade at the threshold or more), again when another side is
 * picked; the cutoff is said in words, rounded down, and a side kept before
 * probabilities were kept, or with no relevant result, says so instead.
 */

const fake = bridgeForFile()

const RECORD = {
  ...TREND_EXPERIMENT,
  settings: { gain: 'exponential', unjudged: 'zero', threshold: 2 },
  sides: [
    { label: 'Demo, config default', target: { connectionId: 'c1' }, evaluationId: 'e-a', means: {} },
    { label: 'Demo, config fresh', target: { connectionId: 'c1', config: 'fresh' }, evaluationId: 'e-b', means: {} },
  ],
} as ExperimentRecord

const BANDS = [
  { from: 0.8, to: 0.9, items: 40, judged: 30, meanGrade: 2.5 },
  { from: 0.9, to: 1, items: 12, judged: 12, meanGrade: 2.916 },
]

async function mount(answer: unknown) {
  const pinia = demoWindow(fake, {
    ...NOTHING_KEPT,
    'eval:probability': answer,
  })
  const [{ default: ExperimentProbability }, { useExperimentsStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentProbability.vue'),
    import('../../src/renderer/stores/experiments'),
  ])
  const experiments = useExperimentsStore(pinia)
  await settle()
  experiments.shown = RECORD
  return render(ExperimentProbability, { global: { plugins: [pinia] } })
}

const asked = () => fake.calls.filter((call) => call.channel === 'eval:probability').map((call) => call.request)

describe('ExperimentProbability', () => {
  it("asks main for a side's bands at the experiment's threshold, says the cutoff rounded down, and asks again for another side", async () => {
    const screen = await mount({ hasProbabilities: true, bands: BANDS, cutoff: { cutoff: 0.81279, kept: 52, relevant: 38, relevantTotal: 42 } })
    await expect.element(screen.getByText('A cutoff of 0.812 keeps 90 % of the relevant results (38 of 42), and 52 results in all.')).toBeVisible()
    expect(asked()).toEqual([{ id: 'e-a', threshold: 2, share: 0.9 }])
    await expect.element(screen.getByRole('img', { name: "Mean grade of A's judged results in each probability band" })).toBeInTheDocument()

    const side = screen.getByRole('combobox', { name: 'Probability chart side' })
    expect(side.getByRole('option').elements().map((option) => option.textContent)).toEqual(['A: Demo, config default', 'B: Demo, config fresh'])
    await side.selectOptions('B: Demo, config fresh')
    await expect.poll(asked).toEqual([{ id: 'e-a', threshold: 2, share: 0.9 }, { id: 'e-b', threshold: 2, share: 0.9 }])
    await expect.element(screen.getByRole('img', { name: "Mean grade of B's judged results in each probability band" })).toBeInTheDocument()
  })

  it('says when a side has no probabilities to chart, and when no relevant result gives a cutoff', async () => {
    const old = await mount({ hasProbabilities: false, bands: [], cutoff: null })
    await expect.element(old.getByText("This side's evaluation was kept before evaluations kept each result's probability: there is nothing to chart. Run the experiment again to see it.")).toBeVisible()
    expect(old.getByRole('img').elements()).toHaveLength(0)
    old.unmount()

    const none = await mount({ hasProbabilities: true, bands: BANDS, cutoff: null })
    await expect.element(none.getByText('No retrieved result with a probability is judged relevant (grade 2 or more): there is no cutoff to state.')).toBeVisible()
  })
})
