import { describe, expect, it } from 'vitest'
import { singleAnswer } from '../../src/shared/query/single-answer'
import { search } from '../fixtures/search-request'

/** Any request: each case sets the response type and the options it is about. */
const BASE = search('madrid')

describe('singleAnswer', () => {
  it('tags the answer with its type and what it asked for', () => {
    expect(singleAnswer({ ...BASE, responseType: 'count', options: {} }, { total: 3 })).toEqual({ type: 'count', body: { total: 3 } })
    expect(singleAnswer({ ...BASE, responseType: 'resultitem', options: { rank: 4 } }, { id: 'x' })).toEqual({
      type: 'resultitem', body: { id: 'x' }, rank: 4, column: 1,
    })
    expect(singleAnswer({ ...BASE, responseType: 'options', facet: 'country', options: { multiselect: true } }, { items: [] })).toEqual({
      type: 'options', body: { items: [] }, facet: 'country', multiselect: true,
    })
    expect(singleAnswer({ ...BASE, responseType: 'statistics', options: {} }, { total: 1 })).toMatchObject({ type: 'statistics' })
  })

  it('takes rank and column 1, no facet and a single selection when the request leaves them out', () => {
    expect(singleAnswer({ ...BASE, responseType: 'resultitem', options: {} }, { id: 'x' })).toMatchObject({ rank: 1, column: 1 })
    expect(singleAnswer({ ...BASE, responseType: 'options', options: {} }, {})).toMatchObject({ facet: '', multiselect: false })
    expect(singleAnswer({ ...BASE, responseType: 'statistics', options: {} }, { total: 1, stats: [] })).toEqual({ type: 'statistics', body: { total: 1, stats: [] } })
  })
})
