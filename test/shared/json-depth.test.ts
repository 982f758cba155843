import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/shared/json-depth'

/** The depth bound on every answer the client reads, against the plainest statement of it. */

function depth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  const children = Array.isArray(value) ? value : Object.values(value)
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depth(child)), 0)
}

const nested = (levels: number, array: boolean): unknown => {
  let value: unknown = 'leaf'
  for (let i = 0; i < levels; i++) value = array ? [value] : { a: value }
  return value
}

describe('nestedDeeperThan', () => {
  it('is true exactly when a value nests deeper than the bound', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, max) => {
        expect(nestedDeeperThan(value, max)).toBe(depth(value) > max)
      }),
      { numRuns: 3_000 },
    )
  })

  it('takes 64 levels and refuses 65, in arrays and objects', () => {
    for (const array of [true, false]) {
      expect(nestedDeeperThan(nested(MAX_JSON_DEPTH, array))).toBe(false)
      expect(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1, array))).toBe(true)
    }
  })

  it('answers for 100,000 levels without running out of stack, and reads a "__proto__" key as a key', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    expect(nestedDeeperThan(deep)).toBe(true)
    expect(nestedDeeperThan(JSON.parse('{"__proto__": {"a": {"b": 1}}}'), 2)).toBe(true)
    expect(nestedDeeperThan(JSON.parse('{"__proto__": {"a": {"b": 1}}}'), 3)).toBe(false)
  })
})
