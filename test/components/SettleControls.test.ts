import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import { agreementOf, THREE_RATERS, viewOf } from './agreement-fixture'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * A row's Open and Settle controls, as the disagreements table and a judge's
 * calibration use them: Settle opens the scale's grade buttons, the focus on
 * the first; a digit of the scale or a grade's button settles the item
 * (`sets:settle`), and the table is handed the sentence to show; Escape
 * leaves it unsettled, the focus back on Settle; a refused settle is a toast.
 */

const fake = bridgeForFile()

const ROW = { query: 'q01', item: 'p1', text: 'paris' }

async function mount() {
  const pinia = demoWindow(fake, { 'sets:get': THREE_RATERS, 'sets:agreement': agreementOf(THREE_RATERS), 'sets:settle': viewOf([THREE_RATERS]) })
  const [{ default: SettleControls }, { default: ToastStack }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/SettleControls.vue'),
    import('../../src/renderer/components/feedback/ToastStack.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(viewOf([THREE_RATERS]))
  const opened: [string, string][] = []
  // A table's cell and its status line, as DisagreementsTable and JudgeCalibration hold the controls.
  const Host = {
    components: { SettleControls, ToastStack },
    data: () => ({ row: ROW, status: '' }),
    methods: { onOpen: (query: string, item: string) => opened.push([query, item]) },
    template: '<p role="status">{{ status }}</p><SettleControls :row="row" @open="onOpen" @settled="(text) => (status = text)" /><ToastStack />',
  }
  const screen = await render(Host, { global: { plugins: [pinia] } })
  const settleButton = screen.getByRole('button', { name: 'Settle p1 for “paris”' })
  const group = screen.getByRole('group', { name: 'Settle p1 for “paris”' })
  const status = screen.getByRole('status').filter({ hasText: 'Settled' })
  /** Settle pressed: the grade buttons out, the focus on the first. */
  async function openSettle(): Promise<void> {
    await settleButton.click()
    await expect.element(group.getByRole('button', { name: '0 Poor' })).toHaveFocus()
  }
  return { screen, opened, settleButton, group, status, openSettle }
}

const sent = () => fake.calls.filter((call) => call.channel === 'sets:settle').map((call) => call.request)

describe('SettleControls', () => {
  it('Settle opens the grade buttons, the focus on the first, with the keys as their title; Open hands on the query and the item', async () => {
    const { screen, opened, group, openSettle } = await mount()
    await screen.getByRole('button', { name: 'Open “paris” in Results, p1 marked' }).click()
    expect(opened).toEqual([['q01', 'p1']])
    await openSettle()
    await expect.element(group).toHaveAttribute('title', 'Keys 0, 1, 2, 3 settle, Escape leaves it')
    await expect.element(group.getByRole('button', { name: '3 Perfect' })).toBeVisible()
    await expect.element(group.getByRole('button', { name: 'Cancel' })).toBeVisible()
  })

  it('a digit of the scale settles with that grade; a digit that is no grade sends nothing', async () => {
    const { settleButton, group, status, openSettle } = await mount()
    await openSettle()
    await userEvent.keyboard('7')
    expect(sent()).toEqual([])
    await userEvent.keyboard('2')
    await expect.element(status).toHaveTextContent('Settled p1 for “paris”: 2 Good.')
    expect(sent()).toEqual([{ set: 'World cities', query: 'q01', item: 'p1', grade: 2 }])
    await expect.element(group).not.toBeInTheDocument()
    await expect.element(settleButton).toHaveFocus()
  })

  it('Escape closes the grade buttons unsettled, the focus back on Settle', async () => {
    const { settleButton, group, openSettle } = await mount()
    await openSettle()
    await userEvent.keyboard('{Escape}')
    await expect.element(group).not.toBeInTheDocument()
    await expect.element(settleButton).toHaveFocus()
    expect(sent()).toEqual([])
  })

  it('a click on a grade settles with it, and the status says so', async () => {
    const { group, status, openSettle } = await mount()
    await openSettle()
    await group.getByRole('button', { name: '3 Perfect' }).click()
    await expect.element(status).toHaveTextContent('Settled p1 for “paris”: 3 Perfect.')
    expect(sent()).toEqual([{ set: 'World cities', query: 'q01', item: 'p1', grade: 3 }])
  })

  it('a settle main refuses is a toast, the grade buttons left open to try again', async () => {
    const { screen, group, status, openSettle } = await mount()
    fake.hold('sets:settle')
    await openSettle()
    await group.getByRole('button', { name: '1 Fair' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    // While it is being saved, the grade buttons wait.
    await expect.element(group.getByRole('button', { name: '1 Fair' })).toBeDisabled()
    fake.held[0]!.refuse({ code: 'io', message: 'The set file could not be written.' })
    await expect.element(screen.getByRole('alert')).toHaveTextContent('The grade was not settled: The set file could not be written.')
    await expect.element(group.getByRole('button', { name: '1 Fair' })).toBeEnabled()
    await expect.element(status).not.toBeInTheDocument()
  })
})
