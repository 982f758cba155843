import { describe, expect, it } from 'vitest'
import { exportPageRequest, exportRange, exportRefusal } from '../../src/shared/export/plan'
import type { QueryRequest } from '../../src/shared/query/model'
import { buildUrl } from '../../src/shared/query/url'

const shown: QueryRequest = {
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query: 'san' } }],
  responseType: 'resultpage',
  options: { config: 'production', count: 25, offset: 50, cutoff: 0.2 },
}

describe('the pages an export asks for', () => {
  it('are the chain as results at each offset, in the format, keeping the options that shape results', () => {
    const page = exportPageRequest(shown, 150, 100, 'csv')
    expect(page.responseType).toBe('results')
    expect(page.options).toEqual({ config: 'production', cutoff: 0.2, count: 100, offset: 150, format: 'csv' })
    expect(buildUrl('http://127.0.0.1:1/query', page)).toBe(
      'http://127.0.0.1:1/query/world/api/places/e/search/p/query/san/results?config=production&count=100&offset=150&format=csv&cutoff=0.2',
    )
  })

  it('leave json (the default) and a zero offset unwritten, and drop options results do not take', () => {
    const page = exportPageRequest({ ...shown, responseType: 'results', options: { rank: 3, column: 1, count: 10, level: 2 } }, 0, 40, 'json')
    expect(page.options).toEqual({ level: 2, count: 40 })
  })

  it('refuse a request that answers no rows', () => {
    expect(exportRefusal(shown)).toBeNull()
    expect(exportRefusal({ ...shown, responseType: 'statistics' })).toMatch(/statistics/)
  })

  it('start at the page shown, the rows loaded, or the first row', () => {
    const grid = { offset: 50, pageSize: 25, loaded: 125 }
    expect(exportRange('page', grid, 999)).toEqual({ offset: 50, rows: 25 })
    expect(exportRange('loaded', grid, 999)).toEqual({ offset: 50, rows: 125 })
    expect(exportRange('upTo', grid, 250)).toEqual({ offset: 0, rows: 250 })
  })
})
