import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalizeRequest } from '../../src/shared/query/normalize'
import { RESPONSE_TYPES, type QueryRequest } from '../../src/shared/query/model'
import { buildUrl, parseUrl, trimBase } from '../../src/shared/query/url'
import { anyRequest, bareBase, normalRequest, pathBase } from './arbitraries'

const runs = { numRuns: 2000 }

describe('parseUrl is the exact inverse of buildUrl', () => {
  it('over every response type, options/<facet> included', () => {
    // A run of the property below that could miss a type would prove nothing about it.
    const seen = new Set<string>()
    fc.assert(
      fc.property(bareBase, normalRequest, (base, request) => {
        seen.add(request.responseType)
        const back = parseUrl(buildUrl(base, request))
        expect(back).toEqual({ ok: true, value: { base: trimBase(base), request } })
        if (back.ok && request.responseType === 'options') expect(back.value.request.facet).toBe(request.facet)
      }),
      runs,
    )
    expect([...seen].sort()).toEqual([...RESPONSE_TYPES].sort())
  })

  it('for options/<facet>, whatever the facet is called (a response type, a marker, text with slashes)', () => {
    fc.assert(
      fc.property(bareBase, normalRequest, fc.constantFrom('results', 'options', 'e', 'p', 'api', '4', 'a/b', '%2F', 'x:FILTER', 'results,count'), (base, request, facet) => {
        const asked: QueryRequest = { ...request, responseType: 'options', facet }
        const { options: given, ...head } = asked
        expect(parseUrl(buildUrl(base, asked))).toEqual({ ok: true, value: { base: trimBase(base), request: { ...head, options: given } } })
      }),
      runs,
    )
  })

  it('for any normal request against a query URL without a path', () => {
    fc.assert(
      fc.property(bareBase, normalRequest, (base, request) => {
        expect(parseUrl(buildUrl(base, request))).toEqual({ ok: true, value: { base: trimBase(base), request } })
      }),
      runs,
    )
  })

  it('for any normal request against a query URL with a path, when the base is given', () => {
    fc.assert(
      fc.property(pathBase, normalRequest, (base, request) => {
        expect(parseUrl(buildUrl(base, request), { base })).toEqual({ ok: true, value: { base: trimBase(base), request } })
      }),
      runs,
    )
  })

  it('for any request at all, up to its normal form (empty and adjacent context steps)', () => {
    fc.assert(
      fc.property(bareBase, anyRequest, (base, request) => {
        const url = buildUrl(base, request)
        expect(parseUrl(url)).toEqual({ ok: true, value: { base: trimBase(base), request: normalizeRequest(request) } })
        expect(buildUrl(base, normalizeRequest(request))).toBe(url)
      }),
      runs,
    )
  })

  it('writes every name and value as exactly one path segment', () => {
    fc.assert(
      fc.property(normalRequest, (request) => {
        const url = buildUrl('http://h', request)
        const path = url.slice('http://h'.length).split('?')[0]!
        // version?, workspace, "api", api, then 2 per endpoint + 3 per pair, then the response type (and options' facet)
        let expected = (request.version === undefined ? 0 : 1) + 3 + (request.responseType === 'options' ? 2 : 1)
        for (const step of request.steps) {
          expected += 'endpoint' in step ? 2 + 3 * Object.keys(step.parameters).length : 3 * Object.keys(step.context).length
        }
        expect(path.split('/').length - 1).toBe(expected)
        expect(url.includes('#')).toBe(false)
        expect(url.split('?').length).toBeLessThanOrEqual(2)
      }),
      runs,
    )
  })
})
