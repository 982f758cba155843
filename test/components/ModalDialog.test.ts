import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createApp, defineComponent, h, nextTick, ref, type Component } from 'vue'
import { page, userEvent } from 'vitest/browser'
import { useModalDialog, type ModalDialogOptions } from '../../src/renderer/composables/useModalDialog'

/**
 * Every modal of the window opens one way (src/renderer/composables/useModalDialog.ts):
 * modal, the focus on what the user has to answer, and exactly one outcome,
 * Escape counting as Cancel but never after an answer. A dialog of the app's
 * shape, in Chromium.
 */

/**
 * Mounted as the window mounts its app. (vitest-browser-vue's render leaves a
 * dialog shown on mount open but out of the top layer, so not modal.)
 */
const unmounts: (() => void)[] = []
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount()
})
function mount(component: Component) {
  const container = document.body.appendChild(document.createElement('div'))
  const app = createApp(component)
  app.mount(container)
  unmounts.push(() => {
    app.unmount()
    container.remove()
  })
  return { dialog: page.getByRole('dialog', { name: 'Save query as' }), element: container.querySelector('dialog')! }
}

/** A "Save query as" dialog: a name, Save and Cancel, each outcome written down. */
function host(options: ModalDialogOptions, { withName = true } = {}) {
  const outcomes: string[] = []
  const Host = defineComponent(() => {
    const { dialog, once } = useModalDialog(options)
    const answer = (outcome: string) => once(() => {
      outcomes.push(outcome)
      dialog.value?.close()
    })
    return () =>
      h('dialog', { ref: dialog, 'aria-label': 'Save query as', onClose: () => answer('cancel') }, [
        h('button', { type: 'button' }, 'Back'),
        h('button', { type: 'button', 'data-autofocus': '' }, 'Help'),
        withName ? h('input', { type: 'text', 'aria-label': 'Name', value: 'Cities' }) : null,
        h('button', { type: 'button', onClick: () => answer('save') }, 'Save'),
      ])
  })
  return { Host, outcomes }
}

describe('useModalDialog', () => {
  it('opens modal when mounted with its name field focused and selected; Escape cancels, once', async () => {
    const { Host, outcomes } = host({})
    const { dialog, element } = mount(Host)
    await expect.element(dialog).toBeVisible()
    expect(element.matches(':modal')).toBe(true)
    const name = dialog.getByRole('textbox', { name: 'Name' }).element() as HTMLInputElement
    await expect.poll(() => document.activeElement).toBe(name)
    expect([name.selectionStart, name.selectionEnd]).toEqual([0, 'Cities'.length])
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => element.open).toBe(false)
    expect(outcomes).toEqual(['cancel'])
  })

  it('lets an answer through alone: the close that follows it is not a Cancel', async () => {
    const { Host, outcomes } = host({})
    const { dialog } = mount(Host)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => outcomes).toEqual(['save'])
    await nextTick()
    expect(outcomes).toEqual(['save'])
  })

  it('opens and closes with `open`, settling its state before each opening, and focuses what `focus` names', async () => {
    const open = ref(false)
    const openings: boolean[] = []
    const { Host, outcomes } = host({ open: () => open.value, beforeOpen: () => openings.push(open.value), focus: 'button[type=button]:last-child' })
    const { dialog, element } = mount(Host)
    expect(element.open).toBe(false)
    open.value = true
    await expect.poll(() => element.matches(':modal')).toBe(true)
    await expect.poll(() => document.activeElement?.textContent).toBe('Save')
    open.value = false
    await expect.poll(() => element.open).toBe(false)
    // Closed from outside it is a Cancel (the close event comes a task later); a new opening takes a new outcome.
    await expect.poll(() => outcomes).toEqual(['cancel'])
    open.value = true
    await expect.poll(() => element.open).toBe(true)
    await dialog.getByRole('button', { name: 'Save' }).click()
    expect(outcomes).toEqual(['cancel', 'save'])
    expect(openings).toEqual([true, true])
  })

  it('leaves the focus to the browser when `focus` is null, and takes the element marked data-autofocus when there is no field', async () => {
    const { Host } = host({ focus: null })
    const { dialog, element } = mount(Host)
    await expect.element(dialog).toBeVisible()
    // Chromium's own choice: the first button, not the name field.
    await expect.poll(() => document.activeElement?.textContent).toBe('Back')
    expect(element.open).toBe(true)
    unmounts.pop()!()

    const { Host: WithoutField } = host({}, { withName: false })
    mount(WithoutField)
    await expect.poll(() => document.activeElement?.textContent).toBe('Help')
  })
})
