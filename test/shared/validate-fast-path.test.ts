import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FORMATS, RESPONSE_TYPES, type QueryOptions, type QueryRequest, type Step } from '../../src/shared/query/model'
import { isPlainRequest, validateRequest, validateRequestInFull } from '../../src/shared/query/validate'
import { anyRequest } from './arbitraries'

/**
 * validateRequest answers most requests from a small fast path
 * (isPlainRequest). That path may turn down a valid request (the full check
 * then runs), but must never pass one the full check would refuse.
 */

/** Text near every edge the rules draw (blank, dot segments, surrogates, names that are also markers), mostly fine. */
const fine = fc.constantFrom('world', 'places', 'search', 'query', 'san', 'new york', '1("ES")', 'ES', '__proto__', 'e', 'api', '...', '😀', 'x:FILTER')
const wrong = fc.constantFrom('', ' ', '.', '..', 'a\uD800', '\uDC00b')
const edgy = fc.oneof({ weight: 8, arbitrary: fine }, { weight: 1, arbitrary: wrong })
const number = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 1, 2, 10, 100) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0.5, 101, Number.NaN, Number.POSITIVE_INFINITY, -0) },
)

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ endpoint: edgy, parameters: fc.dictionary(edgy, edgy, { maxKeys: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ context: fc.dictionary(edgy, edgy, { maxKeys: 2 }) }) },
)

const OPTION_VALUES: { [K in keyof QueryOptions]-?: fc.Arbitrary<NonNullable<QueryOptions[K]>> } = {
  config: edgy,
  count: number,
  offset: number,
  format: fc.oneof(fc.constantFrom(...FORMATS), edgy),
  level: number,
  homogeneousArrays: fc.boolean(),
  cutoff: number,
  rank: number,
  column: number,
  multiselect: fc.boolean(),
  extra: fc.dictionary(edgy, edgy, { maxKeys: 2 }),
}
/** Zero to three options, each drawn near its edges. */
const options: fc.Arbitrary<QueryOptions> = fc
  .subarray(Object.keys(OPTION_VALUES) as (keyof QueryOptions)[], { maxLength: 3 })
  .chain((names) => fc.tuple(...names.map((name) => OPTION_VALUES[name] as fc.Arbitrary<unknown>)).map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]])) as QueryOptions))

const nearPlain: fc.Arbitrary<QueryRequest> = fc
  .record({
    version: fc.option(fc.constantFrom('4', '4.1', 'v4', ''), { nil: undefined }),
    workspace: edgy,
    api: edgy,
    steps: fc.array(step, { maxLength: 4 }),
    responseType: fc.constantFrom(...RESPONSE_TYPES),
    facet: fc.option(edgy, { nil: undefined, freq: 1 }),
    options,
  })
  .map(({ version, facet, ...rest }) => ({ ...(version === undefined ? {} : { version }), ...rest, ...(facet === undefined ? {} : { facet }) }) as QueryRequest)

describe('the fast path of validateRequest', () => {
  it('passes only requests the full check finds nothing wrong with, near every edge', () => {
    let passed = 0
    fc.assert(
      fc.property(nearPlain, (request) => {
        if (!isPlainRequest(request)) return
        passed++
        expect(validateRequestInFull(request)).toEqual([])
      }),
      { numRuns: 20_000 },
    )
    // Else the property would hold by never being tried.
    expect(passed).toBeGreaterThan(200)
  })

  it('passes only valid requests among any requests at all', () => {
    fc.assert(
      fc.property(anyRequest, (request) => {
        if (isPlainRequest(request)) expect(validateRequestInFull(request)).toEqual([])
      }),
      { numRuns: 5_000 },
    )
  })

  it('gives validateRequest the same answer as the full check, fast path or not', () => {
    fc.assert(
      fc.property(nearPlain, (request) => {
        expect(validateRequest(request)).toEqual(validateRequestInFull(request))
      }),
      { numRuns: 5_000 },
    )
  })

  it('takes the common request of the app', () => {
    const request: QueryRequest = {
      workspace: 'world',
      api: 'places',
      steps: [
        { endpoint: 'search', parameters: { query: 'new york' } },
        { endpoint: 'country:FILTER', parameters: { value: '1("US")' } },
      ],
      responseType: 'results',
      options: { config: 'default', count: 10, offset: 20 },
    }
    expect(isPlainRequest(request)).toBe(true)
  })
})
