import { describe, expect, it } from 'vitest'
import { QueryRequestSchema, StepSchema, isEndpointStep, type Step } from '../../src/shared/query/model'

/** The one request model: what a model file may leave out, what it may not hold, and the two kinds of step. */

describe('QueryRequestSchema', () => {
  it('reads a request that leaves out options and parameters as one with none', () => {
    expect(QueryRequestSchema.parse({ workspace: 'world', api: 'places', steps: [{ endpoint: 'countries' }], responseType: 'count' })).toEqual({
      workspace: 'world',
      api: 'places',
      steps: [{ endpoint: 'countries', parameters: {} }],
      responseType: 'count',
      options: {},
    })
  })

  it('keeps a version, a facet, every known option and unknown ones under extra', () => {
    const request = {
      version: '4',
      workspace: 'world',
      api: 'places',
      steps: [{ context: { lang: 'en' } }, { endpoint: 'search', parameters: { query: 'san' } }],
      responseType: 'options',
      facet: 'country',
      options: { config: 'default', count: 5, offset: 0, multiselect: true, extra: { dev_version: 'master' } },
    }
    expect(QueryRequestSchema.parse(request)).toEqual(request)
  })

  it('refuses a field it does not know, at the top, in a step or in the options, and an unknown response type', () => {
    const base = { workspace: 'w', api: 'a', steps: [], responseType: 'results' }
    expect(QueryRequestSchema.safeParse(base).success).toBe(true)
    for (const bad of [
      { ...base, colour: 'red' },
      { ...base, steps: [{ endpoint: 'e', parameters: {}, note: 'x' }] },
      { ...base, options: { dev_version: 'master' } },
      { ...base, options: { count: '10' } },
      { ...base, responseType: 'result' },
      { ...base, steps: [{ endpoint: 'e', parameters: { n: 1 } }] },
      { workspace: 'w', api: 'a', steps: [] },
    ]) {
      expect(QueryRequestSchema.safeParse(bad).success).toBe(false)
    }
  })
})

describe('steps', () => {
  it('tells an endpoint step from a context step', () => {
    const endpoint = StepSchema.parse({ endpoint: 'search', parameters: { query: 'x' } }) as Step
    const context = StepSchema.parse({ context: { lang: 'en' } }) as Step
    expect([isEndpointStep(endpoint), isEndpointStep(context)]).toEqual([true, false])
    // Neither kind: both fields, or none.
    expect(StepSchema.safeParse({ endpoint: 'e', context: {} }).success).toBe(false)
    expect(StepSchema.safeParse({}).success).toBe(false)
  })
})
