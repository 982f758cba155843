import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { analyzeField, fold, queryTerms, tokenize } from '../../src/service/dataset/analysis'
import { readSourcePackages } from '../../src/service/dataset/source'

/**
 * How a city name or a query becomes index terms: MiniSearch's tokenizer to
 * the letter (the scores rest on it), folded so that "sao paulo" finds
 * "São Paulo".
 */

describe('tokenize', () => {
  it('splits at every run of spaces and punctuation, keeping the empty tokens at the edges', () => {
    expect(tokenize('São Paulo')).toEqual(['São', 'Paulo'])
    expect(tokenize('St. Petersburg')).toEqual(['St', 'Petersburg'])
    expect(tokenize("Saint-Étienne\nl'Aquila")).toEqual(['Saint', 'Étienne', 'l', 'Aquila'])
    expect(tokenize('-Paris-')).toEqual(['', 'Paris', ''])
    expect(tokenize('!!!')).toEqual(['', ''])
    expect(tokenize('')).toEqual([''])
  })

  it('tokenizes every city name as MiniSearch does', () => {
    const miniSearchTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]
    const differing = readSourcePackages().cities.name.filter((name) => JSON.stringify(tokenize(name)) !== JSON.stringify(miniSearchTokenize(name)))
    expect(differing).toEqual([])
  })
})

describe('fold', () => {
  it('lowers the case and drops the accents', () => {
    expect(fold('São')).toBe('sao')
    expect(fold('ZÜRICH')).toBe('zurich')
    expect(fold('Kraków')).toBe('krakow')
    // A composed and a decomposed accent fold alike.
    expect(fold('e\u0301')).toBe(fold('\u00e9'))
    expect(fold('')).toBe('')
  })
})

describe('analyzeField', () => {
  it('counts each folded term, and as length the distinct tokens before folding', () => {
    expect(analyzeField('San San')).toEqual({ length: 1, frequencies: new Map([['san', 2]]) })
    expect(analyzeField('san San SÁN')).toEqual({ length: 3, frequencies: new Map([['san', 3]]) })
  })

  it('counts an empty token in the length but never as a term', () => {
    expect(analyzeField('-Paris')).toEqual({ length: 2, frequencies: new Map([['paris', 1]]) })
    expect(analyzeField('')).toEqual({ length: 1, frequencies: new Map() })
  })
})

describe('queryTerms', () => {
  it('gives each distinct word of a query, folded, with how often it is written', () => {
    expect(queryTerms('Kraków kraków KRAKOW old-town')).toEqual(
      new Map([
        ['krakow', 3],
        ['old', 1],
        ['town', 1],
      ]),
    )
    expect(queryTerms(' , ')).toEqual(new Map())
  })
})
