import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DECIMAL_PATTERN } from '../../src/shared/number-text'
import { decimalIn } from '../../src/shared/query/url-parse-decimal'

/** An option's number read where it stands in the URL: what DECIMAL_PATTERN and Number give for the slice, NaN for what is no decimal. */

function reference(value: string): number {
  return DECIMAL_PATTERN.test(value.trim()) ? Number(value) : Number.NaN
}

const read = (value: string) => decimalIn(`?x=${value}&`, 3, 3 + value.length)

describe('decimalIn', () => {
  it('reads whole numbers, fractions, signs and exponents, and what surrounds the slice is not read', () => {
    expect([read('10'), read('-7'), read('0.5'), read('.5'), read('5.'), read('1e3'), read('2.5E-2'), read('1e+2')]).toEqual([10, -7, 0.5, 0.5, 5, 1000, 0.025, 100])
    expect(decimalIn('123456', 1, 3)).toBe(23)
  })

  it('trims white space at the ends, as trim() does', () => {
    expect([read(' 42'), read('42\t'), read('\u00a0 3.5 \n')]).toEqual([42, 42, 3.5])
  })

  it('reads long numbers exactly as Number does', () => {
    expect(read('0.1234567890123456789')).toBe(0.1234567890123456789)
    expect(read('9007199254740993')).toBe(9007199254740993)
    expect(read('123456789012345')).toBe(123456789012345)
  })

  it('gives NaN for what is no decimal: empty, a sign or a point alone, words, hex, two points, a bare exponent', () => {
    for (const value of ['', ' ', '-', '.', '-.', 'ten', '0x10', '1.2.3', '1e', 'e5', '1e5.5', '+1', '1_000', 'Infinity', '1 2']) {
      expect(read(value), value).toBeNaN()
    }
  })

  it('agrees with the pattern and Number on any text of digits, signs, points, exponents and spaces', () => {
    const text = fc.array(fc.constantFrom('0', '1', '5', '9', '-', '+', '.', 'e', 'E', ' ', 'x'), { maxLength: 25 }).map((chars) => chars.join(''))
    fc.assert(
      fc.property(text, (value) => {
        expect(Object.is(read(value), reference(value)) || (Number.isNaN(read(value)) && Number.isNaN(reference(value)))).toBe(true)
      }),
      { numRuns: 3000, seed: 11 },
    )
  })
})
