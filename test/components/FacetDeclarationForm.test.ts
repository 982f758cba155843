import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ExplorerBridge } from '../../src/shared/ipc/contract'
import type { FacetDeclaration } from '../../src/shared/query/facet-declaration'
import { boundToReal, REAL_ANSWERS } from './window-fixtures'

/**
 * The facet declaration form on its own: what it sends is only what differs
 * from the official client's defaults, a name clash with another declared
 * facet is named with its field and rule before anything is sent, what main
 * refuses is said in the form (which stays), editing starts from the facet
 * as declared, and Escape leaves.
 */

let declared: FacetDeclaration[] = []
const sent: FacetDeclaration[][] = []
let refusal: string | null = null

const view = () => boundToReal(declared, false)

const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    if (channel === 'workspace:set-facets') {
      const facets = (request as { facets: FacetDeclaration[] }).facets
      sent.push(facets)
      if (refusal) return { ok: false, error: { code: 'validation', message: refusal } } as never
      declared = facets
      return { ok: true, data: view() } as never
    }
    return { ok: true, data: REAL_ANSWERS[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
  declared = []
  sent.length = 0
  refusal = null
  document.body.replaceChildren()
})

async function mount(editing: string | null, already: FacetDeclaration[] = []) {
  declared = already
  window.explorer = bridge
  const [{ default: FacetDeclarationForm }, { useConnectionsStore }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/facets/FacetDeclarationForm.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
  ])
  const pinia = createPinia()
  await useConnectionsStore(pinia).load()
  useWorkspaceStore(pinia).show(view())
  const done: number[] = []
  const screen = await render(FacetDeclarationForm, { props: { editing, onDone: () => done.push(1) }, global: { plugins: [pinia] } })
  return { screen, done, form: screen.getByRole('form') }
}

describe('FacetDeclarationForm', () => {
  it('sends only what differs from the client’s defaults, and is done', async () => {
    const { screen, form, done } = await mount(null)
    await expect.element(form).toHaveAccessibleName('Declare a facet')
    const options = form.getByRole('textbox', { name: 'Options endpoint' })
    await userEvent.fill(options, ' year ')
    await userEvent.fill(form.getByRole('textbox', { name: 'Filter endpoint' }), 'year_range')
    await userEvent.fill(form.getByRole('textbox', { name: 'Parameter' }), 'values')
    await form.getByRole('radio', { name: 'Several' }).click()
    await form.getByRole('checkbox', { name: 'Reset when the search changes' }).click()
    await form.getByRole('button', { name: 'Declare facet' }).click()
    await expect.poll(() => sent).toEqual([[{ options: 'year', filter: 'year_range', parameter: 'values', selection: 'multiple', resetOnSearchChange: false }]])
    await expect.poll(() => done.length).toBe(1)

    // Typed back to the defaults, filter and parameter are left out of what is kept.
    screen.unmount()
    const again = await mount(null)
    await userEvent.fill(again.form.getByRole('textbox', { name: 'Options endpoint' }), 'genre')
    await userEvent.fill(again.form.getByRole('textbox', { name: 'Filter endpoint' }), 'genre:FILTER')
    await userEvent.fill(again.form.getByRole('textbox', { name: 'Parameter' }), 'value')
    await again.form.getByRole('button', { name: 'Declare facet' }).click()
    await expect.poll(() => sent.at(-1)).toEqual([{ options: 'genre', selection: 'single', resetOnSearchChange: true }])
  })

  it('names a clash with a facet declared already, on its field, and sends nothing', async () => {
    const { form, done } = await mount(null, [{ options: 'genre', selection: 'single', resetOnSearchChange: true }])
    const options = form.getByRole('textbox', { name: 'Options endpoint' })
    await userEvent.fill(options, 'genre')
    await form.getByRole('button', { name: 'Declare facet' }).click()
    await expect.element(options).toHaveAttribute('aria-invalid', 'true')
    await expect.element(form.getByText('Options endpoint: the facet "genre" is declared already.')).toBeVisible()
    await expect.element(options).toHaveFocus()

    // Another name whose filter is that facet's filter: the filter is named.
    await userEvent.fill(options, 'kind')
    const filter = form.getByRole('textbox', { name: 'Filter endpoint' })
    await userEvent.fill(filter, 'genre:FILTER')
    await form.getByRole('button', { name: 'Declare facet' }).click()
    await expect.element(form.getByText('Filter endpoint: "genre:FILTER" is the filter of another declared facet already.')).toBeVisible()
    await expect.element(filter).toHaveFocus()
    expect(sent).toEqual([])
    expect(done).toEqual([])
  })

  it("says what main refused and stays; editing starts from the facet as declared; Escape leaves", async () => {
    const { form, done } = await mount('genre', [{ options: 'genre', filter: 'genre_in', selection: 'multiple', resetOnSearchChange: false }])
    await expect.element(form).toHaveAccessibleName('Edit facet genre')
    await expect.element(form.getByRole('textbox', { name: 'Options endpoint' })).toHaveValue('genre')
    await expect.element(form.getByRole('textbox', { name: 'Filter endpoint' })).toHaveValue('genre_in')
    await expect.element(form.getByRole('textbox', { name: 'Parameter' })).toHaveValue('value')
    await expect.element(form.getByRole('radio', { name: 'Several' })).toBeChecked()
    await expect.element(form.getByRole('checkbox', { name: 'Reset when the search changes' })).not.toBeChecked()

    refusal = 'The workspace could not be changed: it is read-only.'
    await form.getByRole('button', { name: 'Save facet' }).click()
    await expect.element(form.getByText('The facet was not declared: The workspace could not be changed: it is read-only.')).toBeVisible()
    expect(done).toEqual([])
    expect(sent).toEqual([[{ options: 'genre', filter: 'genre_in', selection: 'multiple', resetOnSearchChange: false }]])

    await userEvent.keyboard('{Escape}')
    expect(done).toEqual([1])
  })
})
