import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { sameQuery } from '../../src/shared/workspace/query-equality'
import { anyRequest } from './arbitraries'

const saved: QueryRequest = {
  workspace: 'world',
  api: 'places',
  steps: [
    { endpoint: 'search', parameters: { query: 'san' } },
    { endpoint: 'country:FILTER', parameters: { value: '1("ES")' } },
    { endpoint: 'population', parameters: { min: '100000' } },
  ],
  responseType: 'results',
  options: { config: 'default', count: 10 },
}

const edited = (change: (request: QueryRequest) => void): QueryRequest => {
  const copy = structuredClone(saved)
  change(copy)
  return copy
}

describe('sameQuery', () => {
  it('is true for a request and itself, and for a copy, whatever the request', () => {
    fc.assert(fc.property(anyRequest, (request) => sameQuery(request, request) && sameQuery(request, structuredClone(request))))
  })

  it('takes an option at its default as the option left out, as the editor writes it', () => {
    // The editor leaves out config "default" and always writes count.
    expect(sameQuery(saved, edited((r) => (r.options = { count: 10 })))).toBe(true)
    expect(sameQuery(saved, edited((r) => (r.options = {})))).toBe(true)
    expect(sameQuery(saved, edited((r) => (r.options = { format: 'json', homogeneousArrays: false, count: 10 })))).toBe(true)
    expect(sameQuery(saved, edited((r) => (r.options = { count: 25 })))).toBe(false)
    expect(sameQuery(saved, edited((r) => (r.options = { config: 'production', count: 10 })))).toBe(false)
  })

  it('leaves out the page looked at and the options the response type does not take', () => {
    expect(sameQuery(saved, edited((r) => (r.options.offset = 20)))).toBe(true)
    expect(sameQuery(saved, edited((r) => (r.options.rank = 3)))).toBe(true)
    const item = edited((r) => (r.responseType = 'resultitem'))
    expect(sameQuery(item, edited((r) => ((r.responseType = 'resultitem'), (r.options.rank = 3))))).toBe(false)
  })

  it('counts an option the client does not know (dev_version): adding, changing or removing it is an edit', () => {
    const dev = edited((r) => (r.options.extra = { dev_version: 'master' }))
    expect(sameQuery(saved, dev)).toBe(false)
    expect(sameQuery(dev, edited((r) => (r.options.extra = { dev_version: 'master' })))).toBe(true)
    expect(sameQuery(dev, edited((r) => (r.options.extra = { dev_version: 'main' })))).toBe(false)
    expect(sameQuery(saved, edited((r) => (r.options.extra = {})))).toBe(true)
  })

  it('reads parameters in any order and an empty one as none, but not a changed value or step order', () => {
    expect(sameQuery(saved, edited((r) => (r.steps[2] = { endpoint: 'population', parameters: { max: '', min: '100000' } })))).toBe(true)
    expect(sameQuery(saved, edited((r) => (r.steps[0] = { endpoint: 'search', parameters: { query: 'sa' } })))).toBe(false)
    expect(sameQuery(saved, edited((r) => r.steps.reverse()))).toBe(false)
    expect(sameQuery(saved, edited((r) => r.steps.pop()))).toBe(false)
  })

  it('takes adjacent context steps as one, as a URL does', () => {
    const one = edited((r) => r.steps.unshift({ context: { a: '1', b: '2' } }))
    const two = edited((r) => r.steps.unshift({ context: { b: '2' } }, { context: { a: '1' } }))
    expect(sameQuery(one, two)).toBe(true)
    expect(sameQuery(one, saved)).toBe(false)
  })

  it('compares the API, the response type and the facet, not the workspace or version the connection gives', () => {
    expect(sameQuery(saved, edited((r) => (r.api = 'public')))).toBe(false)
    expect(sameQuery(saved, edited((r) => (r.responseType = 'count')))).toBe(false)
    expect(sameQuery(saved, edited((r) => ((r.workspace = 'other'), (r.version = '4'))))).toBe(true)
    const facetOf = (facet: string) => edited((r) => ((r.responseType = 'options'), (r.facet = facet), (r.options = {})))
    expect(sameQuery(facetOf('country'), facetOf('country'))).toBe(true)
    expect(sameQuery(facetOf('country'), facetOf('continent'))).toBe(false)
  })

  it('keeps a parameter named __proto__ as any other name', () => {
    const withProto = (value: string) => edited((r) => (r.steps[0] = { endpoint: 'search', parameters: Object.fromEntries([['__proto__', value]]) }))
    expect(sameQuery(withProto('a'), withProto('a'))).toBe(true)
    expect(sameQuery(withProto('a'), withProto('b'))).toBe(false)
  })
})
