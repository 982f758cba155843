import { describe, expect, it } from 'vitest'
import { exportFileName } from '../../src/shared/export/file-name'
import type { QueryRequest } from '../../src/shared/query/model'

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
