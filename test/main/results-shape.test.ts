import { describe, expect, it } from 'vitest'
import { TOO_DEEP, resultsShapeProblem } from '../../src/main/http/results-shape'
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/shared/json-depth'

/**
 * The results page check also bounds nesting, so an answer is walked once:
 * wherever the deep part hides (an attribute, an extra field of an item or
 * of the page, a tuple keyed by column), the page is refused exactly when the
 * whole answer nests deeper than MAX_JSON_DEPTH.
 */

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf'
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

/** A page whose deepest branch goes through `place`, `extra` levels below the spot named. */
function page(place: 'attribute' | 'item field' | 'page field' | 'keyed tuple', extra: number): unknown {
  const object = { id: 'x', class: ['city'], attributes: { name: 'X', deep: place === 'attribute' || place === 'keyed tuple' ? nested(extra) : 1 } }
  const item: Record<string, unknown> = { rank: 1, probability: 1, tuple: place === 'keyed tuple' ? { 1: object } : [object] }
  if (place === 'item field') item.debug = nested(extra)
  const body: Record<string, unknown> = { offset: 0, count: 10, type: ['OBJ'], items: [item] }
  if (place === 'page field') body.debug = nested(extra)
  return body
}

describe('resultsShapeProblem and depth', () => {
  for (const place of ['attribute', 'item field', 'page field', 'keyed tuple'] as const) {
    it(`refuses a page too deep through ${place}, and only then`, () => {
      const seen = new Set<boolean>()
      for (let extra = 55; extra <= 64; extra++) {
        const body = page(place, extra)
        const tooDeep = nestedDeeperThan(body, MAX_JSON_DEPTH)
        expect(resultsShapeProblem(body) !== null, `${place}, ${extra} levels`).toBe(tooDeep)
        if (tooDeep) expect(resultsShapeProblem(body)).toContain(TOO_DEEP)
        seen.add(tooDeep)
      }
      // The range crosses the bound for this place: both answers were met.
      expect(seen.size).toBe(2)
    })
  }
})
