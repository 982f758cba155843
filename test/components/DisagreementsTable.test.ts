import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { agreementOf, THREE_RATERS, viewOf } from './agreement-fixture'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The table of disagreements: the items whose raters differ by the chosen
 * steps or more, widest first, sorted by Query or Spread from their headers;
 * Open hands the query and item to the view; Settle takes a grade from the
 * keyboard (a digit of the scale; Escape leaves it), sends it as
 * `sets:settle`, and the row then says what it was settled at.
 */

const fake = bridgeForFile()

async function mount(set: QuerySet = THREE_RATERS) {
  const pinia = demoWindow(fake, { 'sets:get': set, 'sets:agreement': agreementOf(set), 'sets:settle': viewOf([set]) })
  const [{ default: DisagreementsTable }, { useWorkspaceStore }, { useAgreementPanel }] = await Promise.all([
    import('../../src/renderer/components/relevance/DisagreementsTable.vue'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/components/relevance/useAgreementPanel'),
  ])
  useWorkspaceStore(pinia).show(viewOf([set]))
  const opened: [string, string][] = []
  // The panel's composable loads the report (and reloads it when the set or the steps change), as AgreementPanel does around the table.
  const Host = {
    components: { DisagreementsTable },
    setup: () => ({ ...useAgreementPanel(), onOpen: (query: string, item: string) => opened.push([query, item]) }),
    template: '<DisagreementsTable @open="onOpen" />',
  }
  const screen = await render(Host, { global: { plugins: [pinia] } })
  return { screen, opened }
}

const rowTexts = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].map((row) => `${row.querySelector('th span')!.textContent} ${row.children[1]!.textContent}`)

describe('DisagreementsTable', () => {
  it('lists the items two steps apart or more, widest first, with every grade; sorts by Query and by Spread', async () => {
    const { screen } = await mount()
    const table = screen.getByRole('table', { name: 'Disagreements' })
    await expect.element(table).toBeVisible()
    await expect.element(screen.getByRole('status').filter({ hasText: 'items' })).toHaveTextContent('2 items with grades 2 steps apart or more.')
    const element = () => table.element() as HTMLElement
    expect(rowTexts(element())).toEqual(['paris p1', 'rome r1'])
    await expect.element(table.getByRole('row').filter({ hasText: 'p1' })).toHaveTextContent(/cy 3 · ana 0 · ben 3\s*3 steps/)

    await table.getByRole('button', { name: 'Query' }).click()
    await expect.element(table.getByRole('columnheader', { name: 'Query' })).toHaveAttribute('aria-sort', 'ascending')
    expect(rowTexts(element())).toEqual(['paris p1', 'rome r1'])
    await table.getByRole('button', { name: 'Query' }).click()
    await expect.element(table.getByRole('columnheader', { name: 'Query' })).toHaveAttribute('aria-sort', 'descending')
    expect(rowTexts(element())).toEqual(['rome r1', 'paris p1'])
    await table.getByRole('button', { name: 'Spread' }).click()
    await expect.element(table.getByRole('columnheader', { name: 'Spread' })).toHaveAttribute('aria-sort', 'descending')
    await expect.element(table.getByRole('columnheader', { name: 'Query' })).toHaveAttribute('aria-sort', 'none')
    expect(rowTexts(element())).toEqual(['paris p1', 'rome r1'])
    await table.getByRole('button', { name: 'Spread' }).click()
    expect(rowTexts(element())).toEqual(['rome r1', 'paris p1'])
  })

  it('asks again with the steps chosen', async () => {
    const { screen } = await mount()
    await expect.element(screen.getByRole('table', { name: 'Disagreements' })).toBeVisible()
    fake.answers['sets:agreement'] = agreementOf(THREE_RATERS, 1)
    await screen.getByRole('combobox', { name: 'Differ by at least (steps on the scale)' }).selectOptions('1 step')
    await expect.element(screen.getByRole('status').filter({ hasText: 'items' })).toHaveTextContent('4 items with grades 1 step apart or more.')
    expect(fake.calls.filter((call) => call.channel === 'sets:agreement').at(-1)?.request).toEqual({ set: 'World cities', steps: 1, settled: true })
  })

  it('Open hands the query and the item to the view', async () => {
    const { screen, opened } = await mount()
    await screen.getByRole('button', { name: 'Open “rome” in Results, r1 marked' }).click()
    expect(opened).toEqual([['q02', 'r1']])
  })

  it('settles from the keyboard: a digit of the scale sends the grade, and the row says what it was settled at', async () => {
    const { screen } = await mount()
    await screen.getByRole('button', { name: 'Settle p1 for “paris”' }).click()
    const control = screen.getByRole('group', { name: 'Settle p1 for “paris”' })
    await expect.element(control.getByRole('button', { name: '0 Poor' })).toHaveFocus()
    // 7 is no grade of the scale: nothing is sent.
    await userEvent.keyboard('7')
    expect(fake.calls.some((call) => call.channel === 'sets:settle')).toBe(false)

    // Main's answers once settled: the set with the adjudicated grade, and its figures.
    const settled: QuerySet = { ...THREE_RATERS, judgments: [...THREE_RATERS.judgments, { query: 'q01', item: 'p1', rater: 'adjudication', grade: 2 }] }
    fake.answers['sets:get'] = settled
    fake.answers['sets:agreement'] = agreementOf(settled)
    const asked = fake.calls.filter((call) => call.channel === 'sets:agreement').length
    await userEvent.keyboard('2')
    await expect.element(screen.getByRole('row').filter({ hasText: 'p1' })).toHaveTextContent('settled: 2 Good')
    expect(fake.calls.find((call) => call.channel === 'sets:settle')?.request).toEqual({ set: 'World cities', query: 'q01', item: 'p1', grade: 2 })
    expect(fake.calls.filter((call) => call.channel === 'sets:agreement').length).toBeGreaterThan(asked)
    await expect.element(screen.getByRole('status').filter({ hasText: 'items' })).toHaveTextContent('2 items with grades 2 steps apart or more · 1 settled.')
    await expect.element(screen.getByRole('button', { name: 'Settle p1 for “paris”' })).toHaveFocus()
  })

  it('Escape leaves the item unsettled, the focus back on its Settle button', async () => {
    const { screen } = await mount()
    await screen.getByRole('button', { name: 'Settle r1 for “rome”' }).click()
    await expect.element(screen.getByRole('group', { name: 'Settle r1 for “rome”' }).getByRole('button', { name: '0 Poor' })).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    await expect.element(screen.getByRole('group', { name: 'Settle r1 for “rome”' })).not.toBeInTheDocument()
    await expect.element(screen.getByRole('button', { name: 'Settle r1 for “rome”' })).toHaveFocus()
    expect(fake.calls.some((call) => call.channel === 'sets:settle')).toBe(false)
  })
})
