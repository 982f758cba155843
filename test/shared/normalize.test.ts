import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isNormalChain, normalizeRequest, normalizeSteps } from '../../src/shared/query/normalize'
import type { QueryRequest } from '../../src/shared/query/model'
import { anySteps, normalSteps } from './arbitraries'

describe('normal form of a chain', () => {
  it('drops empty context steps and merges adjacent ones, the later value winning', () => {
    expect(
      normalizeSteps([
        { context: {} },
        { endpoint: 'x', parameters: {} },
        { context: { a: '1', b: '2' } },
        { context: {} },
        { context: { a: '3' } },
        { endpoint: 'y', parameters: {} },
      ]),
    ).toEqual([{ endpoint: 'x', parameters: {} }, { context: { a: '3', b: '2' } }, { endpoint: 'y', parameters: {} }])
  })

  it('returns a normal request itself', () => {
    const request: QueryRequest = { workspace: 'w', api: 'a', steps: [{ context: { a: '1' } }, { endpoint: 'x', parameters: {} }], responseType: 'results', options: {} }
    expect(normalizeRequest(request)).toBe(request)
    expect(isNormalChain([{ context: {} }])).toBe(false)
    expect(isNormalChain([{ context: { a: '1' } }, { context: { b: '1' } }])).toBe(false)
  })

  it('is idempotent, leaves normal chains alone and always gives a normal chain', () => {
    fc.assert(
      fc.property(anySteps, normalSteps, (any, normal) => {
        const once = normalizeSteps(any)
        expect(isNormalChain(once)).toBe(true)
        expect(normalizeSteps(once)).toEqual(once)
        expect(isNormalChain(normal)).toBe(true)
        expect(normalizeSteps(normal)).toEqual(normal)
      }),
      { numRuns: 1000 },
    )
  })
})
