import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { inOrder, loadMorePlan, pageStart, pagerView, previousPageOffset } from '../../src/shared/results/paging'

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

/** A promise the test settles when it chooses, so answers can come back in any order. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('Load more: a few pages on the way, applied in order', () => {
  it('gives the answers in the order of the steps, whatever order they arrive in, with at most `width` asked at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 5 }), fc.infiniteStream(fc.nat()), async (count, width, picks) => {
        const steps = Array.from({ length: count }, (_, i) => i)
        const waiting = new Map<number, ReturnType<typeof deferred<number>>>()
        let mostAtOnce = 0
        const taken: number[] = []
        const consumer = (async () => {
          for await (const answer of inOrder(steps, (step) => {
            const answer = deferred<number>()
            waiting.set(step, answer)
            mostAtOnce = Math.max(mostAtOnce, waiting.size)
            return answer.promise
          }, width)) taken.push(answer)
        })()
        const pick = picks[Symbol.iterator]()
        while (taken.length < count) {
          await tick()
          // Answer one of the asked steps, picked at random: answers come back out of order.
          const asked = [...waiting.keys()]
          if (asked.length === 0) continue
          const step = asked[pick.next().value % asked.length]!
          waiting.get(step)!.resolve(step * 10)
          waiting.delete(step)
        }
        await consumer
        expect(taken).toEqual(steps.map((step) => step * 10))
        expect(mostAtOnce).toBeLessThanOrEqual(width)
      }),
      { numRuns: 60 },
    )
  })

  it('asks the next step as soon as the first one waiting is taken, before the caller handles it', async () => {
    const asked: number[] = []
    const pages = inOrder([0, 1, 2, 3], async (step) => {
      asked.push(step)
      return step
    }, 2)
    expect(asked).toEqual([])
    expect((await pages.next()).value).toBe(0)
    expect(asked).toEqual([0, 1, 2])
  })

  it('fails in its turn: the answers before a failure come first, and nothing after it is taken', async () => {
    const steps = [0, 1, 2, 3]
    const answers = steps.map(() => deferred<number>())
    const taken: number[] = []
    const run = (async () => {
      for await (const answer of inOrder(steps, (step) => answers[step]!.promise, 3)) taken.push(answer)
    })()
    // The third fails before the first two arrive.
    answers[2]!.reject(new Error('page 3 failed'))
    await tick()
    answers[1]!.resolve(1)
    answers[0]!.resolve(0)
    await expect(run).rejects.toThrow('page 3 failed')
    expect(taken).toEqual([0, 1])
  })

  it('asks nothing more once the caller stops taking answers (the rows ended, or a cancel)', async () => {
    const asked: number[] = []
    for await (const answer of inOrder([0, 1, 2, 3, 4, 5], async (step) => {
      asked.push(step)
      return step
    }, 2)) {
      if (answer === 1) break
    }
    // The two after the last one taken were on the way (the caller's to cancel); none after them was asked.
    expect(asked).toEqual([0, 1, 2, 3])
  })
})
