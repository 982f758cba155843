import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import type { VerdictHold } from '../../src/shared/ipc/judge-contract'
import { KEPT_EXPERIMENT_ANSWERS, mountExperimentPart, TWO_QUERY_SET } from './demo-set-view'
import { DEMO_JUDGE, GPT_JUDGE, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * "Does the verdict hold?" in the Experiments view: for the judge chosen,
 * each side and metric's Δ and p with the people's grades, the judge's and
 * both, and in words whether the verdict holds, its sign changes or its
 * significance does; another judge asks main again.
 */

const fake = bridgeForFile()

// p is Holm's (pAdjusted, what significant reads); the raw p is half of it here, to tell the two apart.
const row = (metric: string, grades: 'people' | 'judge' | 'both', delta: number, p: number) => ({ side: 'B', metric, grades, n: 2, delta, p: p / 2, pAdjusted: p, significant: p < 0.05 })

const HOLD: VerdictHold = {
  judge: 'llm:demo',
  reference: { people: true, raters: ['Ann'] },
  coverage: [
    { side: 'A', graded: 20, items: 20 },
    { side: 'B', graded: 8, items: 20 },
  ],
  rows: [
    row('ndcg@10', 'people', 0.12, 0.01), row('ndcg@10', 'judge', -0.04, 0.3), row('ndcg@10', 'both', 0.08, 0.02),
    row('p@10', 'people', 0.1, 0.2), row('p@10', 'judge', 0.1, 0.03), row('p@10', 'both', 0.1, 0.2),
  ],
  verdicts: [
    { side: 'B', metric: 'ndcg@10', signChanges: true, significanceChanges: true, holds: false },
    { side: 'B', metric: 'p@10', signChanges: false, significanceChanges: true, holds: false },
  ],
}

async function mount() {
  const pinia = demoWindow(fake, {
    ...KEPT_EXPERIMENT_ANSWERS, 'sets:get': TWO_QUERY_SET,
    'experiments:judge-next': { alpha: 0.05, verdicts: [], queue: [], total: 0, summary: '' },
    'experiments:verdict': HOLD,
  })
  return { ...(await mountExperimentPart(pinia, judgesView(TWO_QUERY_SET, [DEMO_JUDGE, GPT_JUDGE]), 'Does the verdict hold?')), pinia }
}

const verdictCalls = () => fake.calls.filter((call) => call.channel === 'experiments:verdict').map((call) => call.request)

describe('ExperimentVerdict', () => {
  it("shows Δ and p with people's grades, the judge's and both, and whether each verdict holds", async () => {
    const { section } = await mount()
    const table = section.getByRole('table', { name: "Δ and p against A with the people's grades, the judge's and both" })
    await expect.element(table.getByRole('row').filter({ hasText: 'nDCG@10' })).toHaveTextContent(/^B\s*nDCG@10\s*\+0\.120\s*p 0\.010, significant\s*−0\.040\s*p 0\.300\s*\+0\.080\s*p 0\.020, significant\s*sign and significance change$/)
    await expect.element(table.getByRole('row').filter({ hasText: 'P@10' })).toHaveTextContent(/^B\s*P@10\s*\+0\.100\s*p 0\.200\s*\+0\.100\s*p 0\.030, significant\s*\+0\.100\s*p 0\.200\s*significance changes$/)
    await expect.element(section.getByRole('status')).toHaveTextContent('0 of 2 verdicts hold whichever grades are used.')
    expect(table.getByRole('columnheader').elements().map((cell) => cell.textContent?.trim())).toEqual(['Side', 'Metric', 'People', 'llm:demo', 'Both', 'Verdict'])
    expect(verdictCalls()).toEqual([{ id: 'x1', judge: 'demo' }])
    // B's top items are judged less than A's: its column would read worse for that alone, and the view says so.
    await expect.element(section.getByText(/^llm:demo graded A 20 of 20, B 8 of 20 of each side's top items\. The sides are not judged alike/)).toBeVisible()
  })

  it('asks again for another judge, and says holds where nothing changes', async () => {
    const { section } = await mount()
    await expect.element(section.getByRole('table')).toBeVisible()
    fake.answers['experiments:verdict'] = { ...HOLD, judge: 'llm:gpt', verdicts: HOLD.verdicts.map((verdict) => ({ ...verdict, signChanges: false, significanceChanges: false, holds: true })) }
    await section.getByRole('combobox', { name: 'Verdict with judge' }).selectOptions('llm:gpt')
    await expect.element(section.getByRole('status')).toHaveTextContent('2 of 2 verdicts hold whichever grades are used.')
    expect(verdictCalls()).toEqual([{ id: 'x1', judge: 'demo' }, { id: 'x1', judge: 'gpt' }])
    const states = section.getByRole('table').getByRole('row').elements().slice(1).map((each) => each.lastElementChild?.textContent)
    expect(states).toEqual(['holds', 'holds'])
  })

  it('leaves no table of the grades before under the error when asking again fails', async () => {
    const { section, pinia } = await mount()
    await expect.element(section.getByRole('table')).toBeVisible()
    fake.hold('experiments:verdict')
    // The set's grades changed (read again): main is asked again, and cannot answer.
    const { useQuerySetsStore } = await import('../../src/renderer/stores/query-sets')
    fake.answers['sets:get'] = { ...TWO_QUERY_SET, judgments: [...TWO_QUERY_SET.judgments, { query: 'q01', item: 'paris-9', rater: 'llm:demo', grade: 1 }] }
    await useQuerySetsStore(pinia).choose(TWO_QUERY_SET.name)
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.refuse({ code: 'internal', message: 'the experiment could not be read' })
    await expect.element(section.getByRole('alert')).toHaveTextContent('Whether the verdict holds could not be worked out: the experiment could not be read')
    await expect.element(section.getByRole('table')).not.toBeInTheDocument()
    await expect.element(section.getByText(/verdicts hold whichever grades are used/)).not.toBeInTheDocument()
  })
})
