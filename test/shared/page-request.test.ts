import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { atPage, pagingKey } from '../../src/shared/query/page-request'

const BASE: QueryRequest = {
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query: 'madrid' } }],
  responseType: 'results',
  options: { count: 10, offset: 30, level: 2 },
}

describe('atPage', () => {
  it('changes only the page size and offset', () => {
    expect(atPage(BASE, 100, 25)).toEqual({ ...BASE, options: { level: 2, count: 25, offset: 100 } })
  })

  it('leaves the offset out on the first page', () => {
    expect(atPage(BASE, 0, 10).options).toEqual({ level: 2, count: 10 })
  })

  it('shares nothing with the request it pages', () => {
    const paged = atPage(BASE, 10, 10)
    ;(paged.steps[0] as { parameters: Record<string, string> }).parameters.query = 'paris'
    paged.options.level = 5
    expect(BASE.steps[0]).toEqual({ endpoint: 'search', parameters: { query: 'madrid' } })
    expect(BASE.options).toEqual({ count: 10, offset: 30, level: 2 })
  })
})

describe('pagingKey', () => {
  it('is the same for every page of a request', () => {
    expect(pagingKey('c1', atPage(BASE, 0, 10))).toBe(pagingKey('c1', atPage(BASE, 500, 100)))
  })

  it('differs for another connection, chain or option', () => {
    const key = pagingKey('c1', BASE)
    expect(pagingKey('c2', BASE)).not.toBe(key)
    expect(pagingKey(null, BASE)).not.toBe(key)
    expect(pagingKey('c1', { ...BASE, options: { ...BASE.options, level: 3 } })).not.toBe(key)
    expect(pagingKey('c1', { ...BASE, steps: [{ endpoint: 'search', parameters: { query: 'paris' } }] })).not.toBe(key)
    expect(pagingKey('c1', { ...BASE, responseType: 'resultpage' })).not.toBe(key)
  })
})
