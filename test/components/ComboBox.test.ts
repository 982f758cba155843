import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import ComboBox from '../../src/renderer/components/controls/ComboBox.vue'

/** Mounted as the bar uses it: a commit becomes the new value (v-model). */
async function mount(modelValue = 'default', options = ['default', 'production', 'staging']) {
  const commits: string[] = []
  const props = { modelValue, options, label: 'Config', onCommit: (value: string) => commits.push(value) }
  const screen = await render(ComboBox, {
    props: { ...props, onCommit: (value: string) => { commits.push(value); screen.rerender({ ...props, modelValue: value }) } },
  })
  return { screen, commits, box: screen.getByRole('combobox', { name: 'Config' }) }
}

describe('ComboBox', () => {
  it('offers every option whatever the box holds, and a pick counts at once', async () => {
    const { screen, commits } = await mount()
    await screen.getByRole('button', { name: 'Config options' }).click()
    const list = screen.getByRole('listbox', { name: 'Config' })
    await expect.element(list).toBeVisible()
    expect(list.getByRole('option').elements().map((option) => option.textContent?.trim())).toEqual(['default', 'production', 'staging'])
    await expect.element(list.getByRole('option', { name: 'default' })).toHaveAttribute('aria-selected', 'true')
    await list.getByRole('option', { name: 'production' }).click()
    expect(commits).toEqual(['production'])
    await expect.element(screen.getByRole('combobox', { name: 'Config' })).toHaveAttribute('aria-expanded', 'false')
    await expect.element(screen.getByRole('combobox', { name: 'Config' })).toHaveValue('production')
  })

  it('from the keyboard: the arrow opens at the current value and moves, Enter picks, Escape closes and then undoes', async () => {
    const { screen, commits, box } = await mount()
    await box.click()
    await userEvent.keyboard('{ArrowDown}')
    await expect.element(box).toHaveAttribute('aria-expanded', 'true')
    await expect.element(box).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'default' }).element().id)
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}')
    expect(commits).toEqual(['staging'])

    await userEvent.keyboard('{Control>}a{/Control}prod')
    await expect.element(box).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByRole('option').elements().map((option) => option.textContent?.trim())).toEqual(['production'])
    await userEvent.keyboard('{Escape}')
    await expect.element(box).toHaveAttribute('aria-expanded', 'false')
    await expect.element(box).toHaveValue('prod')
    await userEvent.keyboard('{Escape}')
    await expect.element(box).toHaveValue('staging')
    expect(commits).toEqual(['staging'])
  })

  it('takes free text, counted on Enter or on leaving the box, not while typing', async () => {
    const { commits, box } = await mount('default', [])
    await box.fill('qa-ranking')
    expect(commits).toEqual([])
    await userEvent.keyboard('{Enter}')
    expect(commits).toEqual(['qa-ranking'])
    await box.fill('canary ')
    await userEvent.tab()
    expect(commits).toEqual(['qa-ranking', 'canary'])
  })
})
