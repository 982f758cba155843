import { describe, expect, it } from 'vitest'
import { buildInvertedIndex, lowerBound } from '../../src/service/dataset/inverted-index'

/** The name index as flat arrays, worked out by hand on a few names. */

describe('buildInvertedIndex', () => {
  it('lists each folded term once, sorted, with its documents and counts', () => {
    // Tokens: [San, San] · [Santos] · [''] · [san, jose]
    const index = buildInvertedIndex(['San San', 'Santos', '', 'san-jose'])
    expect(index.terms).toEqual(['jose', 'san', 'santos'])
    expect(Array.from(index.postingStart)).toEqual([0, 1, 3, 4])
    expect(Array.from(index.postingDoc)).toEqual([3, 0, 3, 1])
    expect(Array.from(index.postingFrequency)).toEqual([1, 2, 1, 1])
    // Distinct tokens before folding, the empty one counted: 1, 1, 1, 2.
    expect(Array.from(index.fieldLength)).toEqual([1, 1, 1, 2])
    expect(index.averageFieldLength).toBe(1.25)
    expect(index.documentCount).toBe(4)
  })

  it('builds an empty index from no names', () => {
    const index = buildInvertedIndex([])
    expect(index.terms).toEqual([])
    expect(Array.from(index.postingStart)).toEqual([0])
    expect([index.postingDoc.length, index.fieldLength.length, index.averageFieldLength, index.documentCount]).toEqual([0, 0, 0, 0])
  })

  it('refuses a name with more words, or a word more often, than its 16-bit counts hold', () => {
    const words = Array.from({ length: 0x10000 }, (_, i) => `w${i}`).join(' ')
    expect(() => buildInvertedIndex(['ok', words])).toThrow(new RangeError('Text 1 has 65536 words, more than the index can count'))
    expect(() => buildInvertedIndex(['a '.repeat(0x10000)])).toThrow(new RangeError('Text 0 repeats "a" more often than the index can count'))
    // At the limit itself it still counts.
    expect(buildInvertedIndex(['a '.repeat(0xffff)]).postingFrequency[0]).toBe(0xffff)
  })
})

describe('lowerBound', () => {
  const terms = ['jose', 'san', 'santos', 'sao']
  it('finds the first term not below the one given, so the terms a prefix starts follow it', () => {
    expect(lowerBound(terms, 'san')).toBe(1)
    expect(lowerBound(terms, 'sana')).toBe(2)
    expect(lowerBound(terms, 'a')).toBe(0)
    expect(lowerBound(terms, 'zz')).toBe(4)
    expect(lowerBound([], 'san')).toBe(0)
  })
})
