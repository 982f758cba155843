import { describe, expect, it, vi } from 'vitest'
import '../../src/renderer/styles/app.css'
import { userEvent } from 'vitest/browser'
import { render } from 'vitest-browser-vue'
import { ExplorerClientError } from '../../src/renderer/api/explorer-client'
import QueryNameDialog from '../../src/renderer/components/workspace/QueryNameDialog.vue'

const taken = (name: string) =>
  new ExplorerClientError({
    code: 'validation',
    message: `A saved query named "${name}" exists; choose another name, or replace it.`,
    problems: [{ field: 'name', message: `"${name}" is taken` }],
  })

function mountName(save: (name: string, replace: boolean) => Promise<void>, canReplace = true) {
  return render(QueryNameDialog, { props: { title: 'Save query', initial: 'San', submitLabel: 'Save', save, canReplace } })
}

describe('QueryNameDialog', () => {
  it('opens modal on a labelled, prefilled name, and saves the name typed, trimmed', async () => {
    const save = vi.fn(async () => undefined)
    const screen = await mountName(save)
    const dialog = screen.getByRole('dialog', { name: 'Save query' })
    const input = dialog.getByRole('textbox', { name: 'Query name' })
    await expect.element(input).toHaveValue('San')
    await expect.element(input).toHaveFocus()
    await input.fill('  Big Spanish cities ')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    expect(save).toHaveBeenCalledWith('Big Spanish cities', false)
    expect(screen.emitted('done')).toHaveLength(1)
  })

  it('asks for a name instead of sending an empty one', async () => {
    const save = vi.fn(async () => undefined)
    const screen = await mountName(save)
    await screen.getByRole('textbox', { name: 'Query name' }).fill('   ')
    await userEvent.keyboard('{Enter}')
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Type a name for the query.')
    expect(save).not.toHaveBeenCalled()
    expect(screen.emitted('done')).toBeUndefined()
  })

  it("shows main's message for a taken name and stays open; Replace saves over that query", async () => {
    const save = vi.fn(async (name: string, replace: boolean) => {
      if (!replace) throw taken(name)
    })
    const screen = await mountName(save)
    await screen.getByRole('textbox', { name: 'Query name' }).fill('Madrid')
    await screen.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('A saved query named "Madrid" exists')
    await expect.element(screen.getByRole('textbox', { name: 'Query name' })).toHaveAttribute('aria-invalid', 'true')
    expect(screen.emitted('done')).toBeUndefined()
    await screen.getByRole('button', { name: 'Replace' }).click()
    expect(save).toHaveBeenLastCalledWith('Madrid', true)
    expect(screen.emitted('done')).toHaveLength(1)
  })

  it('offers no Replace where saving over another query is not possible (a rename)', async () => {
    const screen = await mountName(async (name) => Promise.reject(taken(name)), false)
    await screen.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toBeVisible()
    expect(screen.container.textContent).not.toContain('Replace')
  })
})
