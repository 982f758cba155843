/**
 * Where a page of results stands, from the offset and page size asked for and,
 * when known, the statistics total. Pages are numbered from 1.
 */

export function pageNumber(offset: number, count: number): number {
  return Math.floor(offset / Math.max(1, count)) + 1
}

/** Null when the total is not known (no statistics): the pager then says "page N" only. */
export function pageCount(total: number | null, count: number): number | null {
  if (total === null) return null
  return Math.max(1, Math.ceil(total / Math.max(1, count)))
}

export function offsetOfPage(page: number, count: number): number {
  return Math.max(0, Math.floor(page) - 1) * Math.max(1, count)
}

/**
 * Whether rows follow the ones loaded: by the total when known, otherwise by
 * the last answer being a full page (fewer items means the last page).
 */
export function hasMoreRows(end: number, total: number | null, lastPageFull: boolean): boolean {
  return total === null ? lastPageFull : end < total
}

/** Most rows the grid holds: the virtual grid stays smooth up to here, and the service pages 100 at a time. */
export const MAX_LOADED_ROWS = 10_000
export const LOAD_PAGE_SIZE = 100

/**
 * The offsets and sizes of the requests that load more rows after `end`,
 * until `target` rows are loaded (never past the total or the cap).
 */
export function loadMorePlan(start: number, end: number, target: number, total: number | null): { offset: number; count: number }[] {
  const limit = Math.min(start + Math.min(target, MAX_LOADED_ROWS), total ?? Number.POSITIVE_INFINITY)
  const plan: { offset: number; count: number }[] = []
  for (let offset = end; offset < limit; offset += LOAD_PAGE_SIZE) {
    plan.push({ offset, count: Math.min(LOAD_PAGE_SIZE, limit - offset) })
  }
  return plan
}
