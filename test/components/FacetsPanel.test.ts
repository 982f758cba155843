import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ExplorerBridge } from '../../src/shared/ipc/contract'
import { boundToReal, REAL_ANSWERS } from './window-fixtures'
import type { FacetDeclaration } from '../../src/shared/query/facet-declaration'

/**
 * The facets panel against a deployment that serves no description: it says
 * so and how to go on, and a facet is declared, edited and removed by
 * accessible names, the client's defaults filled in, a slip named with its
 * field and rule. What the panel sends is what main keeps in the workspace.
 */

/** The declarations main holds, and what each set-facets asked. */
let declared: FacetDeclaration[] = []
const sent: FacetDeclaration[][] = []

const view = () => boundToReal(declared, sent.length > 0)

const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    if (channel === 'workspace:set-facets') {
      declared = (request as { facets: FacetDeclaration[] }).facets
      sent.push(declared)
      return { ok: true, data: view() } as never
    }
    if (channel === 'query:run') return { ok: false, error: { code: 'http', message: 'no options here' } } as never
    return { ok: true, data: REAL_ANSWERS[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
  declared = []
  sent.length = 0
})

async function mount() {
  window.explorer = bridge
  const [{ default: FacetsPanel }, { useConnectionsStore }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/facets/FacetsPanel.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
  ])
  const pinia = createPinia()
  const screen = await render(FacetsPanel, { global: { plugins: [pinia] } })
  await useConnectionsStore(pinia).load()
  useWorkspaceStore(pinia).show(view())
  return screen
}

describe('FacetsPanel without a description', () => {
  it('says what it could not learn, and declares, edits and removes a facet by accessible names', async () => {
    const screen = await mount()
    await expect.element(screen.getByText('This API serves no description (404): endpoints are typed by name, and facets are declared here.')).toBeVisible()

    await screen.getByRole('button', { name: 'Declare a facet' }).click()
    const form = screen.getByRole('form', { name: 'Declare a facet' })
    const options = form.getByRole('textbox', { name: 'Options endpoint' })
    await expect.element(options).toHaveFocus()

    // Nothing typed: the field and the rule are named, and nothing is sent.
    await form.getByRole('button', { name: 'Declare facet' }).click()
    await expect.element(options).toHaveAttribute('aria-invalid', 'true')
    await expect.element(form.getByText("Options endpoint: give the name of the endpoint that lists the facet's options.")).toBeVisible()
    expect(sent).toEqual([])

    // The client's defaults, filled in: the filter follows the options endpoint until typed over.
    await userEvent.fill(options, 'genre')
    await expect.element(form.getByRole('textbox', { name: 'Filter endpoint' })).toHaveValue('genre:FILTER')
    await expect.element(form.getByRole('textbox', { name: 'Parameter' })).toHaveValue('value')
    await expect.element(form.getByRole('radio', { name: 'One at a time' })).toBeChecked()
    await expect.element(form.getByRole('checkbox', { name: 'Reset when the search changes' })).toBeChecked()
    await form.getByRole('button', { name: 'Declare facet' }).click()
    await expect.poll(() => sent.at(-1)).toEqual([{ options: 'genre', selection: 'single', resetOnSearchChange: true }])

    const group = screen.getByRole('group', { name: 'genre' })
    await expect.element(group).toBeVisible()
    await screen.getByRole('button', { name: 'Edit facet genre' }).click()
    const edit = screen.getByRole('form', { name: 'Edit facet genre' })
    await expect.element(edit.getByRole('textbox', { name: 'Options endpoint' })).toHaveValue('genre')
    // A filter that is the options endpoint itself is named as such.
    await userEvent.fill(edit.getByRole('textbox', { name: 'Filter endpoint' }), 'genre')
    await edit.getByRole('button', { name: 'Save facet' }).click()
    await expect.element(edit.getByText(/^Filter endpoint: is the options endpoint itself/)).toBeVisible()
    await userEvent.fill(edit.getByRole('textbox', { name: 'Filter endpoint' }), 'genre_in')
    await edit.getByRole('radio', { name: 'Several' }).click()
    await edit.getByRole('button', { name: 'Save facet' }).click()
    await expect.poll(() => sent.at(-1)).toEqual([{ options: 'genre', filter: 'genre_in', selection: 'multiple', resetOnSearchChange: true }])
    await expect.element(screen.getByRole('form')).not.toBeInTheDocument()

    await screen.getByRole('button', { name: 'Remove facet genre' }).click()
    await expect.poll(() => sent.at(-1)).toEqual([])
    await expect.element(screen.getByRole('group', { name: 'genre' })).not.toBeInTheDocument()
  })
})
