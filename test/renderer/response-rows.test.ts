import { describe, expect, it } from 'vitest'
import { isRowType, rowsOf } from '../../src/renderer/stores/response-rows'

/** The rows of a row type's answer (src/renderer/stores/response-rows.ts), as the grid shows them. */

describe('response rows', () => {
  it('knows which response types are a page of rows', () => {
    expect(['results', 'results,count', 'resultpage', 'count', 'statistics', 'options'].filter((type) => isRowType(type as never))).toEqual([
      'results', 'results,count', 'resultpage',
    ])
  })

  it("takes results,count's rows and the statistics beside them, and results' rows as they are", () => {
    const page = { offset: 0, count: 10, type: ['string'], items: [{ rank: 1, probability: 0.5, tuple: ['Paris'] }] }
    expect(rowsOf('results,count', [page, { total: 7 }])).toEqual({ page, statistics: { total: 7 } })
    expect(rowsOf('results', page)).toEqual({ page, statistics: null })
  })

  it("reads a resultpage's entity views as the grid's tuple objects, and a wrapped simple value as that value", () => {
    const body = {
      offset: 20, count: 2,
      items: [
        { rank: 21, probability: 1, tuple: [{ id: 'Q90', class: 'city capital', name: 'Paris' }, { value: 2_100_000 }, { value: { nested: true } }] },
        { rank: 22, probability: 1, tuple: { place: { id: 7, class: ['town'] }, note: { value: null } } },
      ],
    }
    expect(rowsOf('resultpage', body)).toEqual({
      page: {
        offset: 20, count: 2, type: [],
        items: [
          { rank: 21, probability: 1, tuple: [{ id: 'Q90', class: ['city', 'capital'], attributes: { name: 'Paris' } }, 2_100_000, '{"nested":true}'] },
          { rank: 22, probability: 1, tuple: { place: { id: '7', class: ['town'], attributes: {} }, note: null } },
        ],
      },
      statistics: null,
    })
  })
})
