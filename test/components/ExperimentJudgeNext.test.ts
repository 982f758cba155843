import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { userEvent } from 'vitest/browser'
import type { ExperimentJudgeNextReply } from '../../src/shared/ipc/relevance-contract'
import { bridgeForFile, demoWindow } from './mount-with-bridge'
import { demoSetView, KEPT_EXPERIMENT_ANSWERS, mountExperimentPart, TWO_QUERY_SET } from './demo-set-view'

/**
 * The Experiments view's "What judging could change": per metric of the side
 * compared, Δ now and where it could go with the unjudged judged, and the
 * verdict in words (could change sign, significance, or decided), as main
 * works them out with the judgments as they are now; the summary sentence;
 * Judge next walking the queue in the Judge dialog, and the verdicts asked
 * for again after a rating.
 */

const fake = bridgeForFile()

const SET = TWO_QUERY_SET

const view = () => demoSetView(SET)

const verdict = (metric: string, delta: [number, number, number], p: [number, number, number], sign: boolean, significance: boolean) => ({
  metric, other: 0, n: 2,
  delta: { current: delta[0], low: delta[1], high: delta[2] },
  signCanChange: sign,
  pAdjusted: { current: p[0], low: p[1], high: p[2] },
  significant: { current: p[0] < 0.05, low: p[1] < 0.05, high: p[2] < 0.05 },
  significanceCanChange: significance,
  decided: !sign && !significance,
})

const OPEN: ExperimentJudgeNextReply = {
  alpha: 0.05,
  verdicts: [verdict('ndcg@10', [0.12, -0.03, 0.2], [0.03, 0.4, 0.01], true, true), verdict('p@10', [0.1, 0.1, 0.1], [0.5, 0.5, 0.5], false, false)],
  queue: [
    { query: 'q02', text: 'rome', item: 'rome-4', label: 'Rome four', ranks: [null, 2], priority: 0.3, effects: [{ metric: 'ndcg@10', other: 0, effect: 0.3 }], why: "not in A's ranking, rank 2 in B; could move the delta of nDCG@10 by about 0.300 on this query" },
  ],
  total: 1,
  summary: "1 unjudged pair could change a verdict. nDCG@10: its delta +0.120 could go between −0.030 and +0.200, significant now, not if the unjudged go the baseline's way.",
}

const DECIDED: ExperimentJudgeNextReply = {
  alpha: 0.05,
  verdicts: [verdict('ndcg@10', [0.12, 0.1, 0.15], [0.01, 0.02, 0.01], false, false), verdict('p@10', [0.1, 0.1, 0.1], [0.5, 0.5, 0.5], false, false)],
  queue: [],
  total: 0,
  summary: "Nothing left to judge changes a verdict: nDCG@10's delta stays between +0.100 and +0.150, significant either way; P@10's delta stays between +0.100 and +0.100, not significant either way.",
}

async function mount(judgeNext: ExperimentJudgeNextReply) {
  const pinia = demoWindow(fake, {
    ...KEPT_EXPERIMENT_ANSWERS, 'sets:get': SET, 'sets:rate': view(), 'query:cancel': { cancelled: true },
    'experiments:judge-next': judgeNext,
  })
  fake.hold('query:run')
  return mountExperimentPart(pinia, view(), 'What judging could change')
}

const judgeNextCalls = () => fake.calls.filter((call) => call.channel === 'experiments:judge-next').map((call) => call.request)

describe('ExperimentJudgeNext', () => {
  it("says per metric where Δ could go and what could change; Judge next walks the queue, and the verdicts are asked for again after a rating", async () => {
    const { screen, section } = await mount(OPEN)
    const table = section.getByRole('table', { name: "What judging the unjudged results could change in each metric's Δ, B − A" })
    await expect.element(table.getByRole('row').filter({ hasText: 'nDCG@10' })).toHaveTextContent(/^nDCG@10\s*\+0\.120\s*−0\.030 to \+0\.200\s*0\.030\s*0\.400 \/ 0\.010\s*could change sign and significance$/)
    await expect.element(table.getByRole('row').filter({ hasText: 'P@10' })).toHaveTextContent(/^P@10\s*\+0\.100\s*\+0\.100 to \+0\.100\s*0\.500\s*0\.500 \/ 0\.500\s*decided$/)
    await expect.element(section.getByRole('status')).toHaveTextContent(OPEN.summary)
    await expect.element(section.getByText('1 pair, most telling first')).toBeVisible()
    expect(judgeNextCalls()).toEqual([{ id: 'x1', limit: 200 }])

    await section.getByRole('button', { name: 'Judge next' }).click()
    const dialog = screen.getByRole('dialog', { name: 'Judge results' })
    await expect.element(dialog.getByRole('heading', { name: 'Unrated of What to judge next' })).toBeVisible()
    await expect.element(dialog.getByRole('listitem')).toHaveTextContent('rome')
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held[0]!.answer({ url: 'http://127.0.0.1/query', status: 200, contentType: 'application/json', bytes: 1, body: { items: [] }, timings: { connectMs: 0, firstByteMs: 1, totalMs: 1 }, cached: false })
    await expect.element(dialog.getByRole('region', { name: 'Item to judge' })).toHaveTextContent('Rome four')
    await userEvent.keyboard('1')
    expect(fake.calls.filter((call) => call.channel === 'sets:rate').map((call) => call.request)).toEqual([{ set: SET.name, query: 'q02', item: 'rome-4', grade: 1 }])
    await expect.poll(() => judgeNextCalls().length).toBeGreaterThan(1)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect.element(dialog).not.toBeInTheDocument()
  })

  it('with nothing left that changes a verdict says so with the figures, every metric decided, and has nothing to judge next', async () => {
    const { section } = await mount(DECIDED)
    await expect.element(section.getByRole('status')).toHaveTextContent(DECIDED.summary)
    const verdicts = section.getByRole('table').getByRole('row').elements().slice(1).map((row) => row.lastElementChild?.textContent)
    expect(verdicts).toEqual(['decided', 'decided'])
    await expect.element(section.getByRole('button', { name: 'Judge next' })).toBeDisabled()
  })
})
