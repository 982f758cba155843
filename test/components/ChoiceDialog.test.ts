import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import ChoiceDialog from '../../src/renderer/components/workspace/ChoiceDialog.vue'

/**
 * A question with a few answers in a modal dialog: named by its title and
 * described by its message, starting on Cancel, one answer coming back once
 * (Cancel, or the browser closing it by itself, counts as Cancel).
 */

describe('ChoiceDialog', () => {
  const choices = [
    { value: 'discard', label: 'Discard', tone: 'danger' as const },
    { value: 'save', label: 'Save query', tone: 'primary' as const },
  ]

  it('asks with its title and message, starts on Cancel, and says which answer was chosen', async () => {
    const screen = await render(ChoiceDialog, { props: { title: 'Discard changes to “Paris”?', message: 'The editor holds changes.', choices } })
    const dialog = screen.getByRole('dialog', { name: 'Discard changes to “Paris”?' })
    await expect.element(dialog).toHaveAccessibleDescription('The editor holds changes.')
    await expect.element(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await dialog.getByRole('button', { name: 'Save query' }).click()
    expect(screen.emitted('choose')).toEqual([['save']])
  })

  it('a dialog the browser closes by itself (Escape without a cancel event) counts as Cancel, once', async () => {
    const screen = await render(ChoiceDialog, { props: { title: 'Delete “Lisbon”?', message: 'Gone from the workspace.', choices: choices.slice(0, 1) } })
    await expect.element(screen.getByRole('dialog')).toBeVisible()
    ;(screen.getByRole('dialog').element() as HTMLDialogElement).close()
    await expect.poll(() => screen.emitted('cancel')?.length).toBe(1)
    expect(screen.emitted('choose')).toBeUndefined()
  })

  it('offers Cancel beside the answers, and only the first answer counts', async () => {
    const screen = await render(ChoiceDialog, { props: { title: 'Delete “Lisbon”?', message: 'Gone from the workspace.', choices } })
    const dialog = screen.getByRole('dialog', { name: 'Delete “Lisbon”?' })
    expect(dialog.getByRole('button').elements().map((button) => button.textContent?.trim())).toEqual(['Cancel', 'Discard', 'Save query'])
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => screen.emitted('cancel')?.length).toBe(1)
    // The dialog closing after the answer is no second answer.
    ;(dialog.element() as HTMLDialogElement).close()
    expect(screen.emitted('cancel')).toHaveLength(1)
    expect(screen.emitted('choose')).toBeUndefined()
  })
})
