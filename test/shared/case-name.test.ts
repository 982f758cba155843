import { describe, expect, it } from 'vitest'
import { caseNameHint, searchTextOf, uniqueCaseName } from '../../src/shared/test-cases/case-name'
import { search } from '../fixtures/search-request'

describe('names of new cases', () => {
  it('come from the text searched for, else a parameter, else the endpoint or the saved query', () => {
    expect(searchTextOf(search('  san '))).toBe('san')
    expect(searchTextOf({ ...search(''), steps: [{ endpoint: 'city', parameters: { id: '2988507' } }] })).toBe('2988507')
    expect(searchTextOf({ ...search(''), steps: [{ context: { a: 'b' } }, { endpoint: 'countries', parameters: {} }] })).toBe('countries')
    expect(
      searchTextOf({ ...search(''), steps: [{ endpoint: 'country:FILTER', parameters: { value: '1("ES")' } }, { endpoint: 'search', parameters: { query: 'port' } }] }),
    ).toBe('port')
    expect(caseNameHint({ ...search(''), steps: [] }, 'Saved one')).toBe('Saved one')
    expect(caseNameHint({ ...search(''), steps: [] })).toBe('New test')
  })

  it('are made unique: "san", then "san (2)", within 200 characters, without control characters', () => {
    const taken = new Set(['san', 'san (2)'])
    expect(uniqueCaseName('san', (name) => taken.has(name))).toBe('san (3)')
    expect(uniqueCaseName('tokyo', (name) => taken.has(name))).toBe('tokyo')
    expect(uniqueCaseName('a\nb\tc', () => false)).toBe('a b c')
    const long = 'x'.repeat(300)
    const first = uniqueCaseName(long, () => false)
    expect(first).toHaveLength(200)
    const second = uniqueCaseName(long, (name) => name === first)
    expect(second).toHaveLength(200)
    expect(second.endsWith(' (2)')).toBe(true)
    expect(uniqueCaseName('   ', () => false)).toBe('New test')
  })
})
