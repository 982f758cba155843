import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { reactive } from 'vue'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import StepCard from '../../src/renderer/components/chain/StepCard.vue'
import type { EndpointDescription } from '../../src/shared/api-description'
import type { EditorStep } from '../../src/shared/chain/editor-chain'
import type { Step } from '../../src/shared/query/model'

const ENDPOINTS: EndpointDescription[] = [
  { name: 'population', kind: 'filter', stackable: true, output: ['OBJ'], description: 'Keeps cities by population.',
    parameters: [{ name: 'min', type: 'INTEGER', required: false }, { name: 'max', type: 'INTEGER', required: false }] },
  { name: 'country:FILTER', kind: 'facet-filter', stackable: true, output: ['OBJ'],
    parameters: [{ name: 'value', type: 'TUPLE_LIST', required: true }] },
]

async function mount(step: Step, extra: Partial<{ index: number; total: number; enabled: boolean; problems: { field: string; message: string }[] }> = {}) {
  const events: { name: string; args: unknown[] }[] = []
  const entry: EditorStep = { id: 'a', enabled: extra.enabled ?? true, step }
  const screen = await render(StepCard, {
    props: {
      index: extra.index ?? 1,
      entry,
      endpoints: ENDPOINTS,
      total: extra.total ?? 3,
      problems: extra.problems ?? [],
      onUpdate: (...args: unknown[]) => events.push({ name: 'update', args }),
      onRemove: (...args: unknown[]) => events.push({ name: 'remove', args }),
      onMove: (...args: unknown[]) => events.push({ name: 'move', args }),
      onEnable: (...args: unknown[]) => events.push({ name: 'enable', args }),
    },
  })
  return { screen, events, last: (name: string) => events.filter((e) => e.name === name).at(-1)?.args[0] }
}

describe('StepCard', () => {
  it('is a group named after its place, with an endpoint combobox and a text box per parameter', async () => {
    const { screen } = await mount({ endpoint: 'population', parameters: { min: '', max: '' } })
    const card = screen.getByRole('group', { name: 'Step 2' })
    await expect.element(card.getByRole('combobox', { name: 'Endpoint' })).toHaveValue('population')
    await expect.element(card.getByRole('textbox', { name: 'min' })).toBeVisible()
    await expect.element(card.getByRole('textbox', { name: 'max' })).toBeVisible()
    await expect.element(card.getByText('Keeps cities by population.')).toBeVisible()
  })

  it('sends parameter values as typed and flags a number that is not one', async () => {
    const { screen, last } = await mount({ endpoint: 'population', parameters: { min: '', max: '' } })
    await userEvent.fill(screen.getByRole('textbox', { name: 'min' }), '5000')
    expect(last('update')).toEqual({ endpoint: 'population', parameters: { min: '5000', max: '' } })
  })

  it('names a value that does not fit the type', async () => {
    const { screen } = await mount({ endpoint: 'population', parameters: { min: 'lots', max: '' } })
    await expect.element(screen.getByRole('textbox', { name: 'min' })).toHaveAttribute('aria-invalid', 'true')
    await expect.element(screen.getByText('min takes a whole number, such as 100000')).toBeVisible()
  })

  it('changing the endpoint gives it its own parameters', async () => {
    const { screen, last } = await mount({ endpoint: 'population', parameters: { min: '1', max: '' } })
    const endpoint = screen.getByRole('combobox', { name: 'Endpoint' })
    await userEvent.fill(endpoint, 'country:FILTER')
    await userEvent.keyboard('{Enter}')
    await userEvent.keyboard('{Tab}')
    expect(last('update')).toEqual({ endpoint: 'country:FILTER', parameters: { value: '' } })
  })

  it('clearing the endpoint drops its parameters, and the empty card says it is not in the URL', async () => {
    const entry = reactive<EditorStep>({ id: 'a', enabled: true, step: { endpoint: 'population', parameters: { min: '5', max: '9' } } })
    const screen = await render(StepCard, {
      props: { index: 1, entry, endpoints: ENDPOINTS, total: 2, problems: [], onUpdate: (next: Step) => void (entry.step = next) },
    })
    const endpoint = screen.getByRole('combobox', { name: 'Endpoint' })
    await userEvent.clear(endpoint)
    await userEvent.keyboard('{Tab}')
    expect(entry.step).toEqual({ endpoint: '', parameters: {} })
    await expect.element(screen.getByRole('textbox', { name: 'min' })).not.toBeInTheDocument()
    await expect.element(screen.getByText('Empty: not in the URL until it has an endpoint.')).toBeVisible()
    // Another endpoint of the API gets its own parameters only.
    await userEvent.type(endpoint, 'country:FILTER')
    await userEvent.keyboard('{Tab}')
    expect(entry.step).toEqual({ endpoint: 'country:FILTER', parameters: { value: '' } })
  })

  it('moves, switches off and removes by its buttons', async () => {
    const { screen, events } = await mount({ endpoint: 'population', parameters: { min: '1' } })
    await screen.getByRole('button', { name: 'Move up' }).click()
    await screen.getByRole('button', { name: 'Move down' }).click()
    await screen.getByRole('switch', { name: 'Step on' }).click()
    await screen.getByRole('button', { name: 'Remove step' }).click()
    expect(events.map((e) => [e.name, e.args[0]])).toEqual([['move', 0], ['move', 2], ['enable', false], ['remove', undefined]])
  })

  it('cannot move the first card up or the last down', async () => {
    const { screen } = await mount({ endpoint: 'population', parameters: {} }, { index: 0, total: 1 })
    await expect.element(screen.getByRole('button', { name: 'Move up' })).toBeDisabled()
    await expect.element(screen.getByRole('button', { name: 'Move down' })).toBeDisabled()
  })

  it('shows the validation problem of its own fields', async () => {
    const { screen } = await mount(
      { endpoint: 'country:FILTER', parameters: { value: '' } },
      { problems: [{ field: 'steps[1].parameters.value', message: 'Step 2 (country:FILTER): parameter "value" has an empty value' }] },
    )
    await expect.element(screen.getByText('parameter "value" has an empty value', { exact: false })).toBeVisible()
    await expect.element(screen.getByRole('textbox', { name: 'value', exact: true })).toHaveAttribute('aria-invalid', 'true')
  })

  it('edits context parameters as name and value pairs', async () => {
    const { screen, last } = await mount({ context: { lang: 'en' } })
    await expect.element(screen.getByRole('textbox', { name: 'lang' })).toHaveValue('en')
    await userEvent.fill(screen.getByRole('textbox', { name: 'lang' }), 'fr')
    expect(last('update')).toEqual({ context: { lang: 'fr' } })
    await screen.getByRole('button', { name: 'Add context parameter' }).click()
    expect(last('update')).toEqual({ context: { lang: 'en', '': '' } })
  })

  it('commits the endpoint as it is typed, losing no parameter value on the way through other endpoint names', async () => {
    // A parent that applies each update, as the chain store does.
    const entry = reactive<EditorStep>({ id: 'a', enabled: true, step: { endpoint: 'population', parameters: { min: '5', max: '' } } })
    const endpoints = [...ENDPOINTS, { name: 'pop', kind: 'filter', stackable: true, output: ['OBJ'], parameters: [] } as EndpointDescription]
    const screen = await render(StepCard, {
      props: { index: 1, entry, endpoints, total: 2, problems: [], onUpdate: (next: Step) => void (entry.step = next) },
    })
    const endpoint = screen.getByRole('combobox', { name: 'Endpoint' })
    await userEvent.clear(endpoint)
    await userEvent.type(endpoint, 'popul')
    // Typed, not yet left: the step already holds it, and an unfinished name is not yet flagged.
    expect(entry.step).toEqual({ endpoint: 'popul', parameters: { min: '5', max: '' } })
    await expect.element(endpoint).not.toHaveAttribute('aria-invalid', 'true')
    await userEvent.type(endpoint, 'ation')
    expect(entry.step).toEqual({ endpoint: 'population', parameters: { min: '5', max: '' } })
    await userEvent.clear(endpoint)
    await userEvent.type(endpoint, 'popx')
    await userEvent.keyboard('{Tab}')
    await expect.element(endpoint).toHaveAttribute('aria-invalid', 'true')
    await expect.element(screen.getByText('"popx" is not an endpoint this API offers at this place')).toBeVisible()
  })

  it('without a description: offers the endpoint names used before, takes parameters by name, and flags no typed name', async () => {
    const events: { name: string; args: unknown[] }[] = []
    const entry = reactive<EditorStep>({ id: 'a', enabled: true, step: { endpoint: 'movie_search', parameters: { query: 'heat' } } })
    const screen = await render(StepCard, {
      props: {
        index: 0,
        entry,
        endpoints: [],
        usedEndpoints: ['genre:FILTER', 'movie_search'],
        total: 1,
        problems: [],
        onUpdate: (step: Step) => {
          events.push({ name: 'update', args: [step] })
          entry.step = step
        },
      },
    })
    const endpoint = screen.getByRole('combobox', { name: 'Endpoint' })
    const list = document.getElementById(endpoint.element().getAttribute('list') ?? '')
    expect([...(list?.querySelectorAll('option') ?? [])].map((option) => [option.value, option.textContent])).toEqual([
      ['genre:FILTER', 'used before'],
      ['movie_search', 'used before'],
    ])
    await userEvent.fill(screen.getByRole('textbox', { name: 'New parameter name' }), 'lang')
    await screen.getByRole('button', { name: 'Add parameter' }).click()
    expect(events.at(-1)?.args[0]).toEqual({ endpoint: 'movie_search', parameters: { query: 'heat', lang: '' } })
    await userEvent.fill(screen.getByRole('textbox', { name: 'lang' }), 'en')
    expect(entry.step).toEqual({ endpoint: 'movie_search', parameters: { query: 'heat', lang: 'en' } })
    await userEvent.fill(endpoint, 'person_search')
    await userEvent.keyboard('{Tab}')
    await expect.element(endpoint).toHaveAttribute('aria-invalid', 'false')
  })
})
