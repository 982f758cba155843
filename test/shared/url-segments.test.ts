import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FILTER_SUFFIX, VERSION_PATTERN, encodeEndpointName, encodeSegment, trimBase } from '../../src/shared/query/url-segments'

/** What both halves of the URL codec share: a name or value as one path segment, the version pattern, the base without its slashes. */

describe('encodeSegment', () => {
  it('is encodeURIComponent, for any text', () => {
    expect([encodeSegment('new york'), encodeSegment('a/b'), encodeSegment("-_.!~*'()"), encodeSegment('é😀'), encodeSegment('')]).toEqual([
      'new%20york',
      'a%2Fb',
      "-_.!~*'()",
      '%C3%A9%F0%9F%98%80',
      '',
    ])
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite' }), (text) => {
        expect(encodeSegment(text)).toBe(encodeURIComponent(text))
      }),
      { numRuns: 500, seed: 3 },
    )
  })
})

describe('encodeEndpointName', () => {
  it('keeps the :FILTER suffix literal and encodes a colon anywhere else', () => {
    expect(FILTER_SUFFIX).toBe(':FILTER')
    expect(encodeEndpointName('country:FILTER')).toBe('country:FILTER')
    expect(encodeEndpointName('my country:FILTER')).toBe('my%20country:FILTER')
    expect(encodeEndpointName('a:b')).toBe('a%3Ab')
    expect(encodeEndpointName('x:FILTER:FILTER')).toBe('x%3AFILTER:FILTER')
    expect(encodeEndpointName(':FILTER')).toBe(':FILTER')
    expect(encodeEndpointName('country:filter')).toBe('country%3Afilter')
  })
})

describe('trimBase', () => {
  it('drops every trailing slash and nothing else', () => {
    expect([trimBase('https://h/q//'), trimBase('https://h/q'), trimBase('https://h/'), trimBase('/')]).toEqual(['https://h/q', 'https://h/q', 'https://h', ''])
  })
})

describe('VERSION_PATTERN', () => {
  it('takes digits with dots between them, nothing else', () => {
    expect(['4', '4.1', '10.2.3'].map((text) => VERSION_PATTERN.test(text))).toEqual([true, true, true])
    expect(['', 'v4', '4.', '.4', '4..1', '4a'].map((text) => VERSION_PATTERN.test(text))).toEqual([false, false, false, false, false, false])
  })
})
