import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import NameValueRow from '../../src/renderer/components/controls/NameValueRow.vue'

/** One name = value row: its boxes and Remove found by their names, what is typed sent up, its problem shown on the part it is about. */

afterEach(() => document.body.replaceChildren())

const row = (problem: string | null = null) => ({ name: 'dev', value: 'master', nameLabel: 'Name of dev', valueLabel: 'Value of dev', removeLabel: 'Remove dev', problem })
const props = (problem: string | null = null, problemOf: 'name' | 'value' = 'name') => ({ row: row(problem), problemOf })

describe('NameValueRow', () => {
  it('sends up what is typed in each box, and Remove', async () => {
    const sent: [string, string][] = []
    const screen = await render(NameValueRow, {
      props: { ...props(), onName: (text: string) => sent.push(['name', text]), onValue: (text: string) => sent.push(['value', text]), onRemove: () => sent.push(['remove', '']) },
    })
    await expect.element(screen.getByRole('textbox', { name: 'Name of dev' })).toHaveValue('dev')
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of dev' }), 'x')
    await userEvent.type(screen.getByRole('textbox', { name: 'Value of dev' }), '2')
    await userEvent.click(screen.getByRole('button', { name: 'Remove dev' }))
    expect(sent).toEqual([['name', 'devx'], ['value', 'master2'], ['remove', '']])
  })

  it('shows the problem under the row and marks only the part it is about invalid', async () => {
    const screen = await render(NameValueRow, { props: props('Set twice.', 'name') })
    await expect.element(screen.getByText('Set twice.')).toBeVisible()
    await expect.element(screen.getByRole('textbox', { name: 'Name of dev' })).toHaveAttribute('aria-invalid', 'true')
    await expect.element(screen.getByRole('textbox', { name: 'Value of dev' })).not.toHaveAttribute('aria-invalid')

    await screen.rerender(props('Not a number.', 'value'))
    await expect.element(screen.getByRole('textbox', { name: 'Value of dev' })).toHaveAttribute('aria-invalid', 'true')
    await expect.element(screen.getByRole('textbox', { name: 'Name of dev' })).not.toHaveAttribute('aria-invalid')

    await screen.rerender(props(null, 'value'))
    await expect.element(screen.getByText('Not a number.')).not.toBeInTheDocument()
    await expect.element(screen.getByRole('textbox', { name: 'Value of dev' })).toHaveAttribute('aria-invalid', 'false')
  })
})
