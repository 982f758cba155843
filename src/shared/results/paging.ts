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
/** The most rows the service gives at once (its `count` is 1..100: SERVICE-CONTRACT.md). */
export const LOAD_PAGE_SIZE = 100
/**
 * Load more's requests on the way at once. One at a time, each page waited
 * for the round trip through the app host while the service and the window
 * sat idle; a few keep both busy. More gains nothing on a small machine and
 * leaves more requests to cancel when the rows end early.
 */
export const LOAD_IN_FLIGHT = 3

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

/**
 * The answers to `steps`, in the order of the steps, with up to `width` of
 * them asked at once: a step is asked as soon as one ahead of it is taken,
 * so the rows are applied in order while later pages are on the way. A
 * failure surfaces in its turn, after the answers before it (as asking one
 * at a time would). A caller that stops taking answers (the rows ended, a
 * cancel) leaves later ones unasked; those already asked are its to cancel.
 */
export async function* inOrder<S, A>(steps: readonly S[], ask: (step: S) => Promise<A>, width: number): AsyncGenerator<A, void, undefined> {
  const asked: Promise<A>[] = []
  let next = 0
  const askMore = () => {
    while (next < steps.length && asked.length < Math.max(1, width)) {
      const answer = ask(steps[next++]!)
      // Taken in its turn; until then its failure is not an unhandled rejection (nor is it when never taken).
      answer.catch(() => undefined)
      asked.push(answer)
    }
  }
  askMore()
  while (asked.length > 0) {
    const answer = await asked.shift()!
    askMore()
    yield answer
  }
}

/**
 * What the pager says about the rows in the grid. One page's worth of rows is
 * "page N of M"; more than that (after Load more) is the range of rows, with
 * the pages it spans, so the pager and the grid never disagree.
 */
export type PagerView =
  | { kind: 'page'; page: number; pageCount: number | null }
  | { kind: 'range'; first: number; last: number; total: number | null; firstPage: number; lastPage: number; pageCount: number | null }

export function pagerView(offset: number, loaded: number, count: number, total: number | null): PagerView {
  const size = Math.max(1, count)
  const pages = pageCount(total, size)
  if (loaded <= size) return { kind: 'page', page: pageNumber(offset, size), pageCount: pages }
  return {
    kind: 'range',
    first: offset + 1,
    last: offset + loaded,
    total,
    firstPage: pageNumber(offset, size),
    lastPage: pageNumber(offset + loaded - 1, size),
    pageCount: pages,
  }
}

/** The page before the first row shown: its start, so that it ends where the grid begins (0 at the start). */
export function previousPageOffset(offset: number, count: number): number {
  if (offset <= 0) return 0
  const size = Math.max(1, count)
  return Math.floor((offset - 1) / size) * size
}

/** The start of the page, in pages of `count`, that holds row `offset`: where a new page size keeps the reader. */
export function pageStart(offset: number, count: number): number {
  const size = Math.max(1, count)
  return Math.floor(Math.max(0, offset) / size) * size
}
