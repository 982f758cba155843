import { describe, expect, it } from 'vitest'
import type { ApiDescription } from '../../src/shared/api-description'
import { conformedToDescription, type EditorStep } from '../../src/shared/chain/editor-chain'

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
