import { describe, expect, it } from 'vitest'
import { useTableSort } from '../../src/renderer/composables/useTableSort'

/** A table's order from its headers (src/renderer/composables/useTableSort.ts). */

describe('useTableSort', () => {
  it("starts in the set's order; a figure sorts highest first, the query text A to Z, and a second click reverses", () => {
    const { sort, sortBy, ariaSort } = useTableSort<'query' | 'ndcg'>()
    expect(sort.value).toEqual({ by: 'set', descending: false })
    expect(ariaSort('ndcg')).toBe('none')
    sortBy('ndcg')
    expect(sort.value).toEqual({ by: 'ndcg', descending: true })
    expect([ariaSort('ndcg'), ariaSort('query')]).toEqual(['descending', 'none'])
    sortBy('ndcg')
    expect(ariaSort('ndcg')).toBe('ascending')
    sortBy('query')
    expect(sort.value).toEqual({ by: 'query', descending: false })
    sortBy('query')
    expect(ariaSort('query')).toBe('descending')
  })
})
