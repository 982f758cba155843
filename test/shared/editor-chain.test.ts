import { describe, expect, it } from 'vitest'
import type { ApiDescription } from '../../src/shared/api-description'
import { allowedEndpoints, conformedToDescription, problemsForEditor, sentSteps, type EditorStep } from '../../src/shared/chain/editor-chain'

const DESCRIPTION: ApiDescription = {
  workspace: 'world',
  api: 'places',
  public: false,
  configs: ['default'],
  endpoints: [
    { name: 'city', kind: 'item', stackable: false, output: ['OBJ'], parameters: [{ name: 'id', type: 'STRING', required: true }] },
    { name: 'population', kind: 'filter', stackable: true, output: ['OBJ'], parameters: [{ name: 'min', type: 'INTEGER', required: false }, { name: 'max', type: 'INTEGER', required: false }] },
  ],
}

const entry = (id: string, endpoint: string, parameters: Record<string, string>): EditorStep => ({ id, enabled: true, step: { endpoint, parameters } })

describe('conformedToDescription', () => {
  it('gives a step typed before the description its described parameters, keeping values and filled-in extras', () => {
    const chain = [entry('a', 'city', { query: '' }), entry('b', 'population', { min: '500', extra: 'kept' })]
    expect(conformedToDescription(chain, DESCRIPTION).map((e) => e.step)).toEqual([
      { endpoint: 'city', parameters: { id: '' } },
      { endpoint: 'population', parameters: { min: '500', max: '', extra: 'kept' } },
    ])
  })

  it('returns the same list when every step already fits, or when there is no description', () => {
    const chain = [entry('a', 'city', { id: '1' }), entry('b', 'unknown', { q: '' }), { id: 'c', enabled: true, step: { context: { lang: 'en' } } }]
    expect(conformedToDescription(chain, DESCRIPTION)).toBe(chain)
    expect(conformedToDescription(chain, null)).toBe(chain)
  })
})

describe('empty steps', () => {
  const context = (id: string, pairs: Record<string, string>): EditorStep => ({ id, enabled: true, step: { context: pairs } })
  const chain = [entry('a', 'city', { id: '1' }), entry('b', '  ', { id: '' }), context('c', { '': '' }), entry('d', 'population', { min: 'x' })]

  it('are not sent: a blank endpoint name, or context pairs all blank', () => {
    expect(sentSteps(chain)).toEqual([chain[0]!.step, chain[3]!.step])
    expect(sentSteps([context('e', { lang: '' })])).toEqual([{ context: { lang: '' } }])
  })

  it('are named by their card, and the problems of the steps after them keep their own card numbers', () => {
    const sent = [{ field: 'steps[1].parameters.min', message: 'Step 2 (population): parameter "min" must be a whole number' }]
    expect(problemsForEditor(sent, chain)).toEqual([
      { field: 'steps[1].endpoint', message: 'Step 2 is empty: choose its endpoint, or remove the step' },
      { field: 'steps[2]', message: 'Step 3 is empty: name a context parameter and its value, or remove the step' },
      { field: 'steps[3].parameters.min', message: 'Step 4 (population): parameter "min" must be a whole number' },
    ])
    // Switched off, an empty card says nothing.
    expect(problemsForEditor([], chain.map((each) => ({ ...each, enabled: each.id !== 'b' && each.id !== 'c' })))).toEqual([])
  })

  it('do not count as the first endpoint: the card after an empty first one is offered every endpoint', () => {
    const first = [entry('a', '', {}), entry('b', 'city', { id: '1' })]
    expect(allowedEndpoints(DESCRIPTION, first, 1).map((e) => e.name)).toEqual(['city', 'population'])
  })
})
