import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadMorePlan, pageStart, pagerView, previousPageOffset } from '../../src/shared/results/paging'

/** The pager and the grid tell one story: one page is "page N of M", rows gathered by Load more are their range. */

describe('pager view', () => {
  it('one page of rows is page N of M', () => {
    expect(pagerView(0, 10, 10, 5_628)).toEqual({ kind: 'page', page: 1, pageCount: 563 })
    expect(pagerView(390, 10, 10, 5_628)).toEqual({ kind: 'page', page: 40, pageCount: 563 })
    // The last page holds fewer rows; still one page.
    expect(pagerView(5_620, 8, 10, 5_628)).toEqual({ kind: 'page', page: 563, pageCount: 563 })
    expect(pagerView(0, 10, 10, null)).toEqual({ kind: 'page', page: 1, pageCount: null })
  })

  it('after Load more it is the range of rows loaded and the pages they span, not "page 1 of 563"', () => {
    expect(pagerView(0, 300, 10, 5_628)).toEqual({ kind: 'range', first: 1, last: 300, total: 5_628, firstPage: 1, lastPage: 30, pageCount: 563 })
    expect(pagerView(20, 110, 10, 5_628)).toMatchObject({ kind: 'range', first: 21, last: 130, firstPage: 3, lastPage: 13 })
    expect(pagerView(0, 5_628, 25, 5_628)).toMatchObject({ kind: 'range', last: 5_628, lastPage: 226, pageCount: 226 })
  })

  it('Next page continues after the rows loaded, Previous page ends before them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_000 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 1_000 }), (offset, count, loaded) => {
        const view = pagerView(offset, loaded, count, null)
        expect(view.kind).toBe(loaded > count ? 'range' : 'page')
        if (view.kind === 'range') {
          // The pages named hold the first and the last row shown.
          expect((view.firstPage - 1) * count).toBeLessThanOrEqual(offset)
          expect(view.firstPage * count).toBeGreaterThan(offset)
          expect((view.lastPage - 1) * count).toBeLessThan(view.last)
          expect(view.lastPage * count).toBeGreaterThanOrEqual(view.last)
        }
        const previous = previousPageOffset(offset, count)
        if (offset === 0) expect(previous).toBe(0)
        else {
          // A whole page that ends at or before the first row shown, and reaches it.
          expect(previous % count).toBe(0)
          expect(previous).toBeLessThan(offset)
          expect(previous + count).toBeGreaterThanOrEqual(offset)
        }
      }),
    )
    expect(previousPageOffset(300, 10)).toBe(290)
    expect(previousPageOffset(305, 10)).toBe(300)
  })

  it('a new page size keeps the first row shown on screen', () => {
    expect(pageStart(0, 25)).toBe(0)
    expect(pageStart(30, 25)).toBe(25)
    expect(pageStart(390, 100)).toBe(300)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 100 }), (offset, count) => {
        const start = pageStart(offset, count)
        expect(start % count).toBe(0)
        expect(start <= offset && offset < start + count).toBe(true)
      }),
    )
  })

  it('Load more asks for the rows after the last one loaded, 100 at a time, never past the total', () => {
    expect(loadMorePlan(0, 10, 20, 5_628)).toEqual([{ offset: 10, count: 10 }])
    expect(loadMorePlan(0, 10, 300, 5_628)).toEqual([
      { offset: 10, count: 100 },
      { offset: 110, count: 100 },
      { offset: 210, count: 90 },
    ])
    expect(loadMorePlan(5_620, 5_628, 1_000, 5_628)).toEqual([])
  })
})
