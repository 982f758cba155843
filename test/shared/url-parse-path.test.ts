import { describe, expect, it } from 'vitest'
import { decoded, has, isEmpty, isWord, pathIn, raw, segmentCount } from '../../src/shared/query/url-parse-path'

/** The head of a path as places in the URL's text: the segments path.split('/') gives, read only as far as asked. */

const segments = (text: string, from = 0, to = text.length) => {
  const path = pathIn(text, from, to)
  return Array.from({ length: segmentCount(path) }, (_, k) => raw(path, k))
}

describe('the segments of a path', () => {
  it('are what split("/") gives, without the empty one before a leading slash', () => {
    expect(segments('/4/world/api/places')).toEqual(['4', 'world', 'api', 'places'])
    expect(segments('world/api/places/')).toEqual(['world', 'api', 'places', ''])
    expect(segments('/a//b')).toEqual(['a', '', 'b'])
    expect(segments('')).toEqual([])
    expect(segments('/')).toEqual([])
  })

  it('are read within the range given, only as far as asked', () => {
    const text = 'https://h/q/w/api/a?count=1'
    expect(segments(text, 9, 19)).toEqual(['q', 'w', 'api', 'a'])
    const path = pathIn(text, 9, 19)
    expect(has(path, 1)).toBe(true)
    expect(path.ends).toEqual([11, 13])
    expect(has(path, 4)).toBe(false)
    expect(path.done).toBe(true)
  })

  it('are given as written, decoded (null when they cannot be), compared with a word, or found empty', () => {
    const path = pathIn('/new%20york/bad%zz//api', 0, 23)
    expect(segmentCount(path)).toBe(4)
    expect([raw(path, 0), decoded(path, 0)]).toEqual(['new%20york', 'new york'])
    expect(decoded(path, 1)).toBeNull()
    expect([isEmpty(path, 2), isEmpty(path, 3)]).toEqual([true, false])
    expect([isWord(path, 3, 'api'), isWord(path, 3, 'ap'), isWord(path, 0, 'api')]).toEqual([true, false, false])
  })
})
