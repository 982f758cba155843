import { describe, expect, it } from 'vitest'
import { exportFileName } from '../../src/shared/export/file-name'
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

describe('the file name offered', () => {
  const search = (query: string, more: QueryRequest['steps'] = []): QueryRequest => ({
    workspace: 'world',
    api: 'places',
    steps: [{ endpoint: 'search', parameters: { query } }, ...more],
    responseType: 'results',
    options: {},
  })
  const europe = search('san', [{ endpoint: 'continent:FILTER', parameters: { value: '1("Europe")' } }])

  it('is the saved query\'s name as written (the one rule for file names), and the response type unless plain results', () => {
    expect(exportFileName({ request: search('x'), savedQuery: 'San Europe' }, 'csv')).toBe('San Europe.csv')
    expect(exportFileName({ request: search('x'), savedQuery: 'Ünïcode — Städte (2024)' }, 'xlsx')).toBe('Ünïcode — Städte (2024).xlsx')
    expect(exportFileName({ request: { ...search('x'), responseType: 'results,count' }, savedQuery: 'San' }, 'json')).toBe('San (results,count).json')
    expect(exportFileName({ request: { ...search('x'), responseType: 'resultpage' }, savedQuery: 'San' }, 'rdf')).toBe('San (resultpage).nt')
  })

  it('without a saved query, is the search: its parameter values, a facet filter\'s selected values, an address\'s last segment', () => {
    expect(exportFileName({ request: europe }, 'csv')).toBe('san Europe.csv')
    expect(exportFileName({ request: europe, savedQuery: null }, 'csv')).toBe('san Europe.csv')
    const iri = search('San José', [{ endpoint: 'country:FILTER', parameters: { value: '1("https://ex.org/country/ES")|1("https://ex.org/country/PT")' } }])
    expect(exportFileName({ request: iri }, 'csv')).toBe('San José ES PT.csv')
    expect(exportFileName({ request: search('oslo', [{ endpoint: 'country:FILTER', parameters: { value: 'NO' } }]) }, 'xml')).toBe('oslo NO.xml')
  })

  it('falls back to the API, then to "query"; never a path, a hidden file or an endless name', () => {
    expect(exportFileName({ request: { ...search(''), steps: [] } }, 'csv')).toBe('places.csv')
    expect(exportFileName({ request: { ...search('../../etc/passwd'), api: 'x' } }, 'json')).toBe('etc passwd.json')
    expect(exportFileName({ request: { ...search('...'), api: '..' } }, 'xml')).toBe('query.xml')
    const long = exportFileName({ request: search('word '.repeat(100)) }, 'csv')
    expect(long.length).toBeLessThanOrEqual(80 + '.csv'.length)
    expect(long).toMatch(/^word( word)+\.csv$/)
  })
})
