import type { ResponseType } from '../../shared/query/model'
import type { ResultItem, ResultPageResponse, ResultsResponse, StatisticsResponse, TupleValue } from '../../shared/responses'

/** The response types whose answer is a page of rows: the grid shows them, and paging and Load more continue them. */
export const ROW_TYPES: readonly ResponseType[] = ['results', 'results,count', 'resultpage']

export const isRowType = (type: ResponseType): boolean => ROW_TYPES.includes(type)

/**
 * An entity view of `resultpage` (`{id, class: "a b", name, …}`) as the
 * grid's tuple object, so the same columns and row detail serve both: a
 * simple value the service wrapped as `{value}` is that value again.
 */
function tupleValueOf(view: Record<string, unknown>): TupleValue {
  const keys = Object.keys(view)
  if (keys.length === 1 && keys[0] === 'value') {
    const value = view.value
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? value : JSON.stringify(value)
  }
  const { id, class: classes, ...attributes } = view
  return {
    id: typeof id === 'string' ? id : String(id ?? ''),
    class: Array.isArray(classes) ? classes.map(String) : typeof classes === 'string' ? classes.split(/\s+/).filter(Boolean) : [],
    attributes,
  }
}

/** The rows of a row type's answer, and the statistics that `results,count` brings beside them. */
export function rowsOf(type: ResponseType, body: unknown): { page: ResultsResponse; statistics: StatisticsResponse | null } {
  if (type === 'results,count') {
    const [page, statistics] = body as [ResultsResponse, StatisticsResponse]
    return { page, statistics }
  }
  if (type === 'resultpage') {
    const page = body as ResultPageResponse
    const items: ResultItem[] = page.items.map((item) => ({
      rank: item.rank,
      probability: item.probability,
      tuple: Array.isArray(item.tuple)
        ? item.tuple.map(tupleValueOf)
        : Object.fromEntries(Object.entries(item.tuple).map(([key, view]) => [key, tupleValueOf(view)])),
    }))
    return { page: { offset: page.offset, count: page.count, type: page.type ?? [], items }, statistics: null }
  }
  return { page: body as ResultsResponse, statistics: null }
}
