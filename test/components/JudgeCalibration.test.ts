import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import { judgeCalibration } from '../../src/shared/relevance/judge-calibration'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { agreementOf } from './agreement-fixture'
import { DEMO_JUDGE, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * A judge's calibration in the Agreement part: the figures on the items the
 * judge and the people both graded (a figure missing shown as "—" with its
 * reason), the confusion matrix (people's grade down the side), and where
 * they differ most with the model's explanation beside the people's grades,
 * each to Settle (sets:settle, the figures read again; a digit key settles
 * as in the disagreements table) or Open in Results.
 * main's answer is worked out by judge-calibration.ts, not written by hand.
 */

const fake = bridgeForFile()

const j = (query: string, item: string, rater: string, grade: number, explanation?: string) => ({ query, item, rater, grade, ...(explanation ? { explanation } : {}) })

const SET: QuerySet = {
  name: 'World cities',
  query: 'City search',
  queries: [{ id: 'q01', text: 'paris' }, { id: 'q02', text: 'rome' }],
  judgments: [
    j('q01', 'p1', 'ana', 3), j('q01', 'p1', 'ben', 3), j('q01', 'p1', 'llm:demo', 0, 'Paris, Texas: not the city meant.'),
    j('q01', 'p2', 'ana', 1), j('q01', 'p2', 'ben', 1), j('q01', 'p2', 'llm:demo', 1, 'A suburb.'),
    j('q02', 'r1', 'ana', 2), j('q02', 'r1', 'ben', 2), j('q02', 'r1', 'llm:demo', 2, 'Rome, Georgia.'),
    j('q02', 'r2', 'ana', 3), j('q02', 'r2', 'ben', 3), j('q02', 'r2', 'llm:demo', 3, 'The capital of Italy.'),
  ],
}

async function mount(calibration: unknown = judgeCalibration(SET, 'llm:demo')) {
  const pinia = demoWindow(fake, { 'sets:get': SET, 'sets:agreement': agreementOf(SET), 'judges:calibration': calibration, 'sets:settle': judgesView(SET, [DEMO_JUDGE]) })
  const [{ default: AgreementPanel }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/AgreementPanel.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(judgesView(SET, [DEMO_JUDGE]))
  const screen = await render(AgreementPanel, { global: { plugins: [pinia] } })
  const section = screen.getByRole('region', { name: /^llm:demo against / })
  await expect.element(section).toBeVisible()
  return { screen, section }
}

const cells = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent!.replace(/\s+/g, ' ').trim()))

describe('JudgeCalibration', () => {
  it('shows the figures on the items both graded, the confusion matrix, and where they differ with the explanation', async () => {
    const { section } = await mount()
    const report = judgeCalibration(SET, 'llm:demo')
    expect(fake.calls.find((call) => call.channel === 'judges:calibration')?.request).toEqual({ judge: 'demo', set: 'World cities' })
    await expect.element(section.getByText('demo', { exact: true })).toBeVisible()
    const figures = cells(section.getByRole('table', { name: 'Calibration of llm:demo' }).element() as HTMLElement)
    expect(figures).toEqual([
      ['Items both graded', '4'],
      ["Cohen's κ, quadratic", report.kappaQuadratic!.toFixed(3)],
      ["Krippendorff's α, ordinal", report.alphaOrdinal!.toFixed(3)],
      ['Agreement', `${(report.agreement! * 100).toFixed(1)}%`],
    ])
    const matrix = cells(section.getByRole('table', { name: "People's grade (rows) against llm:demo's (columns)" }).element() as HTMLElement)
    expect(matrix).toEqual([
      ['0 Poor', '0', '0', '0', '0'],
      ['1 Fair', '0', '1', '0', '0'],
      ['2 Good', '0', '0', '1', '0'],
      ['3 Perfect', '1', '0', '0', '1'],
    ])
    const differences = cells(section.getByRole('table', { name: 'Where they differ most' }).element() as HTMLElement)
    expect(differences.map((row) => row.slice(0, 4))).toEqual([['paris q01', 'p1', 'ana 3 · ben 3 (aggregate 3.000)', '0 Poor Paris, Texas: not the city meant.']])
  })

  it('settles an item where they differ, and opens one in Results', async () => {
    const { screen, section } = await mount()
    // Main answers the set read after the settle anew (as IPC always does), with the settled grade.
    fake.answers['sets:get'] = { ...SET, judgments: [...SET.judgments, j('q01', 'p1', 'adjudication', 3)] }
    await section.getByRole('button', { name: 'Settle p1 for “paris”' }).click()
    await section.getByRole('group', { name: 'Settle p1 for “paris”' }).getByRole('button', { name: '3 Perfect' }).click()
    await expect.element(section.getByText('Settled p1 for “paris”: 3 Perfect.')).toBeVisible()
    expect(fake.calls.filter((call) => call.channel === 'sets:settle').map((call) => call.request)).toEqual([{ set: 'World cities', query: 'q01', item: 'p1', grade: 3 }])
    // Read again after the settled grade.
    await expect.poll(() => fake.calls.filter((call) => call.channel === 'judges:calibration').length).toBeGreaterThan(1)
    await section.getByRole('button', { name: 'Open “paris” in Results, p1 marked' }).click()
    expect(screen.emitted().open).toEqual([['q01', 'p1']])
  })

  it('settles from the keyboard as the disagreements do: a digit of the scale, the focus back on Settle', async () => {
    const { section } = await mount()
    fake.answers['sets:get'] = { ...SET, judgments: [...SET.judgments, j('q01', 'p1', 'adjudication', 2)] }
    await section.getByRole('button', { name: 'Settle p1 for “paris”' }).click()
    const group = section.getByRole('group', { name: 'Settle p1 for “paris”' })
    await expect.element(group.getByRole('button', { name: '0 Poor' })).toHaveFocus()
    await expect.element(group).toHaveAttribute('title', 'Keys 0, 1, 2, 3 settle, Escape leaves it')
    await userEvent.keyboard('2')
    await expect.element(section.getByText('Settled p1 for “paris”: 2 Good.')).toBeVisible()
    expect(fake.calls.filter((call) => call.channel === 'sets:settle').map((call) => call.request)).toEqual([{ set: 'World cities', query: 'q01', item: 'p1', grade: 2 }])
    await expect.element(section.getByRole('button', { name: 'Settle p1 for “paris”' })).toHaveFocus()
  })

  it('shows "—" and the reason for a figure that cannot be worked out', async () => {
    const { section } = await mount({
      judge: 'llm:demo', n: 0, kappaQuadratic: null, alphaOrdinal: null, agreement: null,
      reasons: { kappaQuadratic: 'no item graded by the judge and a person', alphaOrdinal: 'no item graded by the judge and a person', agreement: 'no item graded by the judge and a person' },
      scale: [0, 1, 2, 3], confusion: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], differences: [], stale: 2, reference: { people: true, raters: ['Ann'] },
    })
    const figures = cells(section.getByRole('table', { name: 'Calibration of llm:demo' }).element() as HTMLElement)
    expect(figures[1]).toEqual(["Cohen's κ, quadratic", '—no item graded by the judge and a person'])
    await expect.element(section.getByText('No item is graded by both llm:demo and a person yet.')).toBeVisible()
    await expect.element(section.getByText('2 of its grades are stale: made under another prompt, model or item content.')).toBeVisible()
  })

  it("says so when no person graded the set and the judge is measured against the set's other raters", async () => {
    const { section } = await mount({
      judge: 'llm:demo', n: 1, kappaQuadratic: null, alphaOrdinal: null, agreement: 1,
      reasons: { kappaQuadratic: 'one grade only', alphaOrdinal: 'one grade only' },
      scale: [0, 1, 2, 3], confusion: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]], differences: [], stale: null,
      reference: { people: false, raters: ['rule: as written', 'rule: strict'] },
    })
    await expect.element(section.getByRole('heading', { name: "llm:demo against the set's other raters" })).toBeVisible()
    await expect.element(section.getByText('No person has graded this set: llm:demo is measured against its other raters, rule: as written, rule: strict.')).toBeVisible()
  })

  it('leaves no figures of the grades before under the error when reading them again fails', async () => {
    const { section } = await mount()
    await expect.element(section.getByRole('table', { name: 'Calibration of llm:demo' })).toBeVisible()
    fake.hold('judges:calibration')
    // A settled grade: the calibration is read again, and main cannot answer.
    fake.answers['sets:get'] = { ...SET, judgments: [...SET.judgments, j('q01', 'p1', 'adjudication', 3)] }
    await section.getByRole('button', { name: 'Settle p1 for “paris”' }).click()
    await section.getByRole('group', { name: 'Settle p1 for “paris”' }).getByRole('button', { name: '3 Perfect' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.refuse({ code: 'internal', message: 'the set could not be read' })
    await expect.element(section.getByRole('alert')).toHaveTextContent('The calibration of llm:demo could not be worked out: the set could not be read')
    await expect.element(section.getByRole('table', { name: 'Calibration of llm:demo' })).not.toBeInTheDocument()
    await expect.element(section.getByRole('table', { name: 'Where they differ most' })).not.toBeInTheDocument()
  })
})
