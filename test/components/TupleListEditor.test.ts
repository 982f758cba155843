import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import TupleListEditor from '../../src/renderer/components/chain/TupleListEditor.vue'

async function mount(modelValue: string, bareId = false) {
  const emitted: string[] = []
  const screen = await render(TupleListEditor, {
    props: { modelValue, name: 'value', inputId: 'value-input', bareId, 'onUpdate:modelValue': (v: string) => emitted.push(v) },
  })
  return { screen, emitted, last: () => emitted[emitted.length - 1] }
}

describe('TupleListEditor', () => {
  it('reads a facet filter\'s bare option id as one option, keeps it as written, and refuses it elsewhere', async () => {
    const { screen, emitted } = await mount('ES', true)
    await expect.element(screen.getByRole('group', { name: 'Tuple 1' }).getByRole('textbox', { name: 'Entry 1' })).toHaveValue('ES')
    expect(screen.container.querySelector<HTMLInputElement>('#value-input')?.value).toBe('ES')
    expect(screen.container.textContent).not.toContain('Not tuple notation yet')
    expect(emitted).toEqual([])
    screen.unmount()
    const other = await mount('ES')
    await expect.element(other.screen.getByText(/Not tuple notation yet/)).toBeVisible()
  })

  it('shows each tuple of the notation as a row of score and entries', async () => {
    const { screen } = await mount('1("Europe")|0.5("Asia",3)')
    await expect.element(screen.getByRole('group', { name: 'Tuple 1' }).getByRole('textbox', { name: 'Entry 1' })).toHaveValue('Europe')
    const second = screen.getByRole('group', { name: 'Tuple 2' })
    await expect.element(second.getByRole('textbox', { name: 'Score' })).toHaveValue('0.5')
    await expect.element(second.getByRole('textbox', { name: 'Entry 2' })).toHaveValue('3')
  })

  it('writes tuple notation when rows are added and edited', async () => {
    const { screen, last } = await mount('')
    await screen.getByRole('button', { name: 'Add tuple' }).click()
    const entry = screen.getByRole('group', { name: 'Tuple 1' }).getByRole('textbox', { name: 'Entry 1' })
    await userEvent.fill(entry, 'Europe, "West"')
    await userEvent.keyboard('{Tab}')
    expect(last()).toBe('1("Europe, \\"West\\"")')
    await screen.getByRole('button', { name: 'Add tuple' }).click()
    await userEvent.fill(screen.getByRole('group', { name: 'Tuple 2' }).getByRole('textbox', { name: 'Entry 1' }), 'Asia')
    await userEvent.keyboard('{Tab}')
    expect(last()).toBe('1("Europe, \\"West\\"")|1("Asia")')
    await screen.getByRole('group', { name: 'Tuple 1' }).getByRole('button', { name: 'Remove tuple' }).click()
    expect(last()).toBe('1("Asia")')
  })

  it('keeps a number a number and text in quotes', async () => {
    const { screen, last } = await mount('1(42)')
    const entry = screen.getByRole('group', { name: 'Tuple 1' }).getByRole('textbox', { name: 'Entry 1' })
    await userEvent.fill(entry, '43')
    await userEvent.keyboard('{Tab}')
    expect(last()).toBe('1(43)')
    await userEvent.fill(screen.getByRole('textbox', { name: 'Score' }), '0.25')
    await userEvent.keyboard('{Tab}')
    expect(last()).toBe('0.25(43)')
  })

  it('keeps typed text that is not tuple notation yet, and says what is wrong', async () => {
    const { screen, last } = await mount('1("Europe")')
    await userEvent.fill(screen.getByRole('textbox').first(), '1("Europe"')
    expect(last()).toBe('1("Europe"')
    await expect.element(screen.getByText(/Not tuple notation yet: .*missing "\)"|Not tuple notation yet/)).toBeVisible()
    await expect.element(screen.getByRole('textbox').first()).toHaveAttribute('aria-invalid', 'true')
  })
})
