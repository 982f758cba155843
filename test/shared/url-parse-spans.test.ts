import { describe, expect, it } from 'vitest'
import { badEncoding, decodeSpan, fail, nextIndex } from '../../src/shared/query/url-parse-spans'

/** The URL reader's smallest parts: finding a separator within a range, decoding a range where it stands, and the errors. */

describe('nextIndex', () => {
  it('finds a character from a place on, or gives the end of the range when it lies past it or nowhere', () => {
    const text = 'e/search/p/q'
    expect(nextIndex(text, '/', 0, text.length)).toBe(1)
    expect(nextIndex(text, '/', 2, text.length)).toBe(8)
    expect(nextIndex(text, '/', 2, 5)).toBe(5)
    expect(nextIndex(text, '?', 0, text.length)).toBe(text.length)
    // A character right at the end of the range counts: the range ends there.
    expect(nextIndex(text, '/', 2, 8)).toBe(8)
  })
})

describe('decodeSpan', () => {
  it('decodes a range where it stands, and gives one without a percent sign as written', () => {
    const text = '/p/new%20york/x'
    expect(decodeSpan(text, 3, 13, 6)).toBe('new york')
    expect(decodeSpan(text, 14, 15, text.length)).toBe('x')
    expect(decodeSpan('a%41b', 0, 1, 1)).toBe('a')
  })

  it('gives null for a range that is not valid percent-encoding', () => {
    expect(decodeSpan('%E0%A4%A/', 0, 8, 0)).toBeNull()
    expect(decodeSpan('x%zz', 0, 4, 1)).toBeNull()
  })
})

describe('the errors', () => {
  it('name the segment and the rule', () => {
    expect(fail('bogus', 'unexpected')).toEqual({ ok: false, error: { segment: 'bogus', message: 'unexpected' } })
    expect(badEncoding('w%ff', 'workspace')).toEqual({ segment: 'w%ff', message: 'workspace "w%ff" is not valid percent-encoding' })
  })
})
