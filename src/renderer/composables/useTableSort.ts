import { ref } from 'vue'

export interface TableSort<Key extends string> {
  /** 'set': the set's own order. */
  by: Key | 'set'
  descending: boolean
}

/**
 * A table's order, chosen from its column headers: the set's own order at
 * first; a column's first click sorts its figures highest first (the query
 * text A to Z), the next reverses it. `ariaSort` is the header's aria-sort.
 */
export function useTableSort<Key extends string>() {
  const sort = ref<TableSort<Key>>({ by: 'set', descending: false })

  function sortBy(by: Key): void {
    sort.value = sort.value.by === by ? { by, descending: !sort.value.descending } : { by, descending: by !== 'query' }
  }
  function ariaSort(by: Key): 'ascending' | 'descending' | 'none' {
    return sort.value.by !== by ? 'none' : sort.value.descending ? 'descending' : 'ascending'
  }

  return { sort, sortBy, ariaSort }
}
