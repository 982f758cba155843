import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { agreementOf, THREE_RATERS, viewOf } from './agreement-fixture'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Agreement part on a set judged by three raters: who rated, every
 * pair's figures, Fleiss' kappa and Krippendorff's alpha with what they were
 * computed on, the confusion matrix of the pair two selects choose, and the
 * queries read most differently first. With one rater, a sentence saying how
 * to add another, and each figure missing shown as "—" with its reason.
 */

const fake = bridgeForFile()

async function mount(set: QuerySet = THREE_RATERS, reply: unknown = agreementOf(set)) {
  const pinia = demoWindow(fake, { 'sets:get': set, 'sets:agreement': reply })
  const [{ default: AgreementPanel }, { useWorkspaceStore }] = await Promise.all([import('../../src/renderer/components/relevance/AgreementPanel.vue'), import('../../src/renderer/stores/workspace')])
  useWorkspaceStore(pinia).show(viewOf([set]))
  return render(AgreementPanel, { global: { plugins: [pinia] } })
}

/** A table's rows as their cells' texts. */
const cells = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent!.replace(/\s+/g, ' ').trim()))

describe('AgreementPanel', () => {
  it('shows the raters, every pair\'s figures and those over all raters with what they were computed on', async () => {
    const screen = await mount()
    const raters = screen.getByRole('table', { name: 'Raters', exact: true })
    await expect.element(raters).toBeVisible()
    expect(cells(raters.element() as HTMLElement)).toEqual([['cy', 'imported file', '7'], ['ana', 'person', '7'], ['ben', 'person', '7']])
    expect(fake.calls.find((call) => call.channel === 'sets:agreement')?.request).toEqual({ set: 'World cities', steps: 2, settled: true })

    const report = agreementOf(THREE_RATERS)
    const pairs = cells(screen.getByRole('table', { name: 'Pairs of raters' }).element() as HTMLElement)
    const cyAna = report.pairs.find((pair) => pair.a === 'cy' && pair.b === 'ana')!
    expect(pairs[0]).toEqual(['cy – ana', '7', `${(cyAna.agreement! * 100).toFixed(1)}%`, cyAna.kappa!.toFixed(3), cyAna.kappaLinear!.toFixed(3), cyAna.kappaQuadratic!.toFixed(3)])
    expect(pairs.map((row) => row[0])).toEqual(['cy – ana', 'cy – ben', 'ana – ben'])

    const overall = cells(screen.getByRole('table', { name: 'Over all raters' }).element() as HTMLElement)
    expect(overall).toEqual([
      ["Fleiss' kappa", report.fleiss.kappa!.toFixed(3), 'on 7 items graded by exactly 3 raters'],
      ["Krippendorff's alpha, nominal", report.alpha.nominal!.toFixed(3), 'on 7 items with two grades or more'],
      ["Krippendorff's alpha, ordinal", report.alpha.ordinal!.toFixed(3), 'on 7 items with two grades or more'],
      ["Krippendorff's alpha, interval", report.alpha.interval!.toFixed(3), 'on 7 items with two grades or more'],
    ])
  })

  it('says when only the pairs sharing the most items came, and that a pair left out has no matrix here', async () => {
    // As main answers for a set of many raters: two of the three pairs sent, one left out.
    const report = agreementOf(THREE_RATERS)
    const screen = await mount(THREE_RATERS, { ...report, pairs: report.pairs.slice(0, 2), pairsLeftOut: 1 })
    await expect.element(screen.getByRole('table', { name: 'Pairs of raters: the 2 sharing the most items, of 3' })).toBeVisible()
    await screen.getByRole('combobox', { name: 'Confusion matrix rows: rater' }).selectOptions('ana')
    await screen.getByRole('combobox', { name: 'Confusion matrix columns: rater' }).selectOptions('ben')
    await expect.element(screen.getByText('ana and ben are not among the pairs listed: they share few items or none.')).toBeVisible()
  })

  it('shows the confusion matrix of the pair the two selects choose, rows the first rater\'s grades', async () => {
    const screen = await mount()
    const rows = screen.getByRole('combobox', { name: 'Confusion matrix rows: rater' })
    const columns = screen.getByRole('combobox', { name: 'Confusion matrix columns: rater' })
    await expect.element(rows).toHaveValue('cy')
    await expect.element(columns).toHaveValue('ana')
    const matrix = () => cells(screen.getByRole('table', { name: /^Grades of/ }).element() as HTMLElement)
    // cy against ana: p1 (3, 0), p2 (1, 1), p3 (3, 2), r1 (1, 0), r2 (3, 3), l1 (2, 2), l2 (1, 0).
    expect(matrix()).toEqual([
      ['0 Poor', '0', '0', '0', '0'],
      ['1 Fair', '2', '1', '0', '0'],
      ['2 Good', '0', '0', '1', '0'],
      ['3 Perfect', '1', '0', '1', '1'],
    ])
    await rows.selectOptions('ana')
    await columns.selectOptions('ben')
    await expect.element(screen.getByRole('table', { name: 'Grades of ana (rows) against ben (columns)' })).toBeVisible()
    // ana against ben: p1 (0, 3), p2 (1, 1), p3 (2, 2), r1 (0, 2), r2 (3, 3), l1 (2, 2), l2 (0, 0).
    expect(matrix()).toEqual([
      ['0 Poor', '1', '0', '1', '1'],
      ['1 Fair', '0', '1', '0', '0'],
      ['2 Good', '0', '0', '2', '0'],
      ['3 Perfect', '0', '0', '0', '1'],
    ])
    // The same pair the other way round: the matrix turned over.
    await rows.selectOptions('ben')
    await columns.selectOptions('ana')
    expect(matrix()[3]).toEqual(['3 Perfect', '1', '0', '0', '1'])
    await columns.selectOptions('ben')
    await expect.element(screen.getByText('Choose two different raters.')).toBeVisible()
  })

  it('lists the queries read most differently first, by their own ordinal alpha', async () => {
    const screen = await mount()
    const table = screen.getByRole('table', { name: 'Queries read most differently first' })
    await expect.element(table).toBeVisible()
    const report = agreementOf(THREE_RATERS)
    const alpha = (id: string) => report.queries.find((query) => query.id === id)!.alpha!
    const expected = ['q01', 'q02', 'q03'].sort((a, b) => alpha(a) - alpha(b))
    expect(cells(table.element() as HTMLElement).map((row) => row[0]!.split(' ').at(-1))).toEqual(expected)
    expect(cells(table.element() as HTMLElement)[0]![2]).toBe(alpha(expected[0]!).toFixed(3))
  })

  it('with one rater, says agreement needs two and how to add one; each figure shows "—" and why', async () => {
    const alone: QuerySet = { ...THREE_RATERS, raters: [], judgments: THREE_RATERS.judgments.filter((judgment) => judgment.rater === 'ana') }
    const screen = await mount(alone)
    await expect.element(screen.getByText(/^Agreement needs two raters: this set has one, ana \(7 judgments\)\. To add one, rate under your own name/)).toBeVisible()
    await expect.element(screen.getByText(/import a judgments file \(Import judgments\)/)).toBeVisible()
    const overall = cells(screen.getByRole('table', { name: 'Over all raters' }).element() as HTMLElement)
    expect(overall[0]).toEqual(["Fleiss' kappa", '—', 'fewer than two raters (only ana)'])
    expect(overall[2]).toEqual(["Krippendorff's alpha, ordinal", '—', 'fewer than two raters (only ana)'])
    await expect.element(screen.getByRole('table', { name: 'Pairs of raters' })).not.toBeInTheDocument()
    await expect.element(screen.getByRole('combobox', { name: 'Confusion matrix rows: rater' })).not.toBeInTheDocument()
  })
})
