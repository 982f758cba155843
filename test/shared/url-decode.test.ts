import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeRange, decodeText } from '../../src/shared/query/url-decode'

/** What the URL reader's decoder must give: the native call's result, null where it throws. */
function native(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

const hex = (byte: number): string => `%${byte.toString(16).padStart(2, '0')}`

/** The inputs decodeText reads differently from the native call; one assertion over many inputs keeps the exhaustive loops quick. */
function mismatches(inputs: Iterable<string>): string[] {
  const differing: string[] = []
  for (const input of inputs) if (decodeText(input) !== native(input)) differing.push(input)
  return differing
}
const HEX_DIGITS = '0123456789abcdefABCDEFgG'

describe('decodeText is decodeURIComponent, null where that throws', () => {
  it('for every single escape, in either case, alone and between text', () => {
    const inputs: string[] = []
    for (let byte = 0; byte < 256; byte++) {
      for (const escape of [hex(byte), hex(byte).toUpperCase()]) inputs.push(escape, `a${escape}`, `${escape}b`, `a${escape}b%41`)
    }
    expect(mismatches(inputs)).toEqual([])
  })

  it('for every two-byte sequence', () => {
    const inputs: string[] = []
    for (let lead = 0x80; lead < 256; lead++) for (let next = 0; next < 256; next++) inputs.push(hex(lead) + hex(next))
    expect(mismatches(inputs)).toEqual([])
  })

  it('for every three-byte sequence led by E0 to EF with a continuation in second place, and the edges of the rest', () => {
    const edges = [0x00, 0x3f, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff]
    const inputs: string[] = []
    for (let lead = 0xe0; lead < 0xf0; lead++) {
      for (let second = 0; second < 256; second++) {
        const thirds = second >= 0x80 && second < 0xc0 ? Array.from({ length: 256 }, (_, i) => i) : edges
        for (const third of thirds) inputs.push(hex(lead) + hex(second) + hex(third))
      }
    }
    expect(mismatches(inputs)).toEqual([])
  })

  it('for four-byte sequences over every lead from F0 and every second byte, at the edges of the last two', () => {
    const edges = [0x7f, 0x80, 0xbf, 0xc0]
    const inputs: string[] = []
    for (let lead = 0xf0; lead < 256; lead++) {
      for (let second = 0; second < 256; second++) {
        for (const third of edges) for (const fourth of edges) inputs.push(hex(lead) + hex(second) + hex(third) + hex(fourth))
      }
    }
    expect(mismatches(inputs)).toEqual([])
  })

  it('for sequences cut short, escapes with a non-hex digit and raw non-ASCII text', () => {
    const inputs = [
      '', 'plain', '%', '%%', '%2', '%2G', '%G2', '%C3', '%C3%', '%C3%A', '%C3%A9', '%C3A9', '%C3%%A9', '%E2%82', '%E2%82%AC',
      '%F0%9F%98', '%F0%9F%98%80', '%EF%BF%BD', '%ED%9F%BF', '%ED%A0%80', '%F4%8F%BF%BF', '%F4%90%80%80', '%u0041',
      '\ud800%41', '%41\udc00', 'é%41', '%é1', '%1é', '%C3%Aé', '+%2B+', '%٣٣', '%ＡＢ',
    ]
    expect(mismatches(inputs)).toEqual([])
  })

  it('for any text made of escapes, hex digits, percent signs and other characters', () => {
    const piece = fc.oneof(
      fc.integer({ min: 0, max: 255 }).map(hex),
      fc.constantFrom('%', ...HEX_DIGITS),
      fc.string({ unit: 'binary', maxLength: 3 }),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const input = pieces.join('')
        expect(decodeText(input)).toBe(native(input))
      }),
      { numRuns: 10000 },
    )
  })
})

describe('decodeRange reads its range only', () => {
  it('is decodeURIComponent of the slice, whatever stands around it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }).map(hex), fc.constantFrom('%', 'A', '9', 'x', 'é')), { minLength: 1, maxLength: 8 }), fc.constantFrom('', '41', '%41', 'A9', '/x'), (before, pieces, after) => {
        const middle = pieces.join('')
        const percent = middle.indexOf('%')
        fc.pre(percent >= 0)
        const text = before + middle + after
        expect(decodeRange(text, before.length, before.length + middle.length, before.length + percent)).toBe(native(middle))
      }),
      { numRuns: 5000 },
    )
  })

  it('does not complete an escape cut short at the end of its range from the text after it', () => {
    expect(decodeRange('%4/1', 0, 2, 0)).toBeNull()
    expect(decodeRange('%C3/%A9', 0, 3, 0)).toBeNull()
    expect(decodeRange('x%C3%A9y', 1, 7, 1)).toBe('é')
  })
})
