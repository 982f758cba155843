import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatTupleList, formatTupleValue, isBareOptionId, parseFilterValue, parseTupleList, type Tuple } from '../../src/shared/query/tuple'
import { text, tupleList } from './arbitraries'

function read(text: string): Tuple[] {
  const result = parseTupleList(text)
  if (!result.ok) throw new Error(`expected ${text} to read: ${result.error.message}`)
  return result.value
}

describe('tuple notation: the contract examples', () => {
  it('writes and reads the contract example with several tuples', () => {
    const tuples = [
      { score: 1, values: ['https://ex.org/Europe'] },
      { score: 1, values: ['https://ex.org/Asia'] },
    ]
    expect(formatTupleList(tuples)).toBe('1("https://ex.org/Europe")|1("https://ex.org/Asia")')
    expect(read('1("https://ex.org/Europe")|1("https://ex.org/Asia")')).toEqual(tuples)
  })

  it('reads the seed shape <number>("<text>")', () => {
    expect(read('1("https://ex.org/US")')).toEqual([{ score: 1, values: ['https://ex.org/US'] }])
  })

  it('reads bare text as the client libraries write it', () => {
    expect(read('1(Europe)')).toEqual([{ score: 1, values: ['Europe'] }])
    expect(read('1(New York)|0.5( Asia )')).toEqual([
      { score: 1, values: ['New York'] },
      { score: 0.5, values: ['Asia'] },
    ])
  })

  it('reads bare numbers as numbers and quoted ones as text', () => {
    expect(read('1(42,-1.5,2e3,"42")')).toEqual([{ score: 1, values: [42, -1.5, 2000, '42'] }])
  })

  it('writes several columns, numbers bare and text quoted', () => {
    expect(formatTupleList([{ score: 0.75, values: ['a', 3, 'b c', -0.5] }])).toBe('0.75("a",3,"b c",-0.5)')
  })

  it('escapes " and \\ in quoted text and reads them back', () => {
    expect(formatTupleValue('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"')
    expect(read('1("say \\"hi\\" \\\\ bye")')).toEqual([{ score: 1, values: ['say "hi" \\ bye'] }])
  })

  it('keeps ,()| and unicode inside quoted text', () => {
    const tuples = [{ score: 1, values: ['a,b(c)|d', 'é 😀'] }]
    expect(read(formatTupleList(tuples))).toEqual(tuples)
  })

  it('reads whitespace around tuples, values and separators', () => {
    expect(read(' 1 ( "a" , 2 ) | 2 ( b ) ')).toEqual([
      { score: 1, values: ['a', 2] },
      { score: 2, values: ['b'] },
    ])
  })

  it('writes -0 as -0 and a tuple without values as 1(), and has no notation for the empty list', () => {
    expect(formatTupleList([{ score: -0, values: [-0] }])).toBe('-0(-0)')
    expect(Object.is(read('-0(-0)')[0]!.score, -0)).toBe(true)
    expect(() => formatTupleList([])).toThrow(/empty tuple list has no tuple notation/)
    expect(formatTupleList([{ score: 1, values: [] }])).toBe('1()')
    expect(read('1()')).toEqual([{ score: 1, values: [] }])
  })

  it('refuses to write a number that has no notation', () => {
    expect(() => formatTupleList([{ score: Number.NaN, values: [] }])).toThrow(RangeError)
    expect(() => formatTupleValue(Number.POSITIVE_INFINITY)).toThrow(/finite/)
  })
})

/**
 * Worked by hand from the official clients: the TypeScript client's
 * `tupleListToString` writes `${score}(${values.join(',')})` joined by `|`
 * (score 1 unless given), no quotes; its `FacetedSearch` sends a single
 * selection as the option id alone. The seed's form quotes text.
 */
describe('tuple notation: every form the official clients write', () => {
  const filter = (text: string): Tuple[] => {
    const result = parseFilterValue(text)
    if (!result.ok) throw new Error(`expected ${text} to read: ${result.error.message}`)
    return result.value
  }

  it('a multiple selection, unquoted: 1(a)|1(b)', () => {
    const tuples = [{ score: 1, values: ['a'] }, { score: 1, values: ['b'] }]
    expect(read('1(a)|1(b)')).toEqual(tuples)
    expect(filter('1(a)|1(b)')).toEqual(tuples)
    // Written back in the seed's quoted form.
    expect(formatTupleList(read('1(a)|1(b)'))).toBe('1("a")|1("b")')
  })

  it('option ids that are URLs, unquoted, with the scores the client was given', () => {
    expect(filter('1(https://ex.org/Europe)|0.5(https://ex.org/Asia)')).toEqual([
      { score: 1, values: ['https://ex.org/Europe'] },
      { score: 0.5, values: ['https://ex.org/Asia'] },
    ])
    expect(formatTupleList(filter('1(https://ex.org/Europe)'))).toBe('1("https://ex.org/Europe")')
  })

  it('several columns joined by a comma, a number among them: 1(a,42)', () => {
    expect(read('1(a,42)')).toEqual([{ score: 1, values: ['a', 42] }])
    expect(formatTupleList(read('1(a,42)'))).toBe('1("a",42)')
  })

  it('the seed form, quoted: 1("a")', () => {
    expect(read('1("a")')).toEqual([{ score: 1, values: ['a'] }])
    expect(filter('1("a")')).toEqual([{ score: 1, values: ['a'] }])
    expect(formatTupleList(read('1("a")'))).toBe('1("a")')
  })

  it('a single selection as a bare value: a, ES, a URL, text with spaces, exactly as given', () => {
    for (const id of ['a', 'ES', 'https://ex.org/Europe', 'New York', ' padded ']) {
      expect(isBareOptionId(id), id).toBe(true)
      expect(filter(id)).toEqual([{ score: 1, values: [id] }])
    }
    // Bare digits stay the text they were: an option id, not a number.
    expect(filter('42')).toEqual([{ score: 1, values: ['42'] }])
  })

  it('refuses a bare value with a parenthesis that is not tuple notation, naming where', () => {
    expect(isBareOptionId('Paris (France)')).toBe(false)
    const result = parseFilterValue('Paris (France)')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).toBe('expected a score (a number) before "(", found "Paris" at position 0')
    expect(parseFilterValue('   ').ok).toBe(false)
  })
})

describe('tuple notation: what it rejects, with the position', () => {
  const cases: [string, number, RegExp][] = [
    ['', 0, /a tuple list must hold at least one tuple/],
    ['  ', 0, /a tuple list must hold at least one tuple/],
    ['("a")', 0, /expected a score \(a number\) before "\(", found ""/],
    ['x("a")', 0, /found "x"/],
    ['1"a"', 0, /expected a score/],
    ['1', 1, /expected "\(" after the score/],
    ['1("a"', 5, /missing "\)"/],
    ['1("a)', 5, /unterminated quoted text/],
    ['1("a\\n")', 4, /backslash in quoted text must escape/],
    ['1("a" "b")', 6, /expected "," or "\)", found """/],
    ['1(a"b")', 3, /a quote may only open quoted text/],
    ['1(,"a")', 2, /expected a value/],
    ['1("a",)', 6, /expected a value/],
    ['1("a")2("b")', 6, /expected "\|" between tuples, found "2"/],
    ['1("a")|', 7, /expected a score/],
    ['1e999("a")', 0, /score "1e999" is out of range/],
    ['1(1e999)', 7, /number "1e999" is out of range/],
  ]
  it.each(cases)('%s', (text, position, message) => {
    const result = parseTupleList(text)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.message).toMatch(message)
    expect(result.error.position).toBe(position)
    expect(result.error.message).toContain(`at position ${position}`)
  })
})

describe('tuple notation: round trips', () => {
  it('parseTupleList(formatTupleList(tuples)) is tuples, for any tuple list', () => {
    fc.assert(
      fc.property(tupleList, (tuples) => {
        const result = parseTupleList(formatTupleList(tuples))
        expect(result).toEqual({ ok: true, value: tuples })
        if (result.ok) {
          // toEqual does not tell 0 from -0; the codec does.
          result.value.forEach((tuple, i) => expect(Object.is(tuple.score, tuples[i]!.score)).toBe(true))
        }
      }),
      { numRuns: 2000 },
    )
  })

  it('formatTupleList(parseTupleList(text)) reads the same again, for text written by hand (bare text, spaces, numbers)', () => {
    const space = fc.constantFrom('', ' ', '  ', '\t')
    const value = fc.oneof(
      fc.constantFrom('Europe', 'New York', 'a\\b', '007', '1e3', '-2', '.5', 'São Paulo', '😀'),
      text.map((v) => formatTupleValue(v)),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => formatTupleValue(n)),
    )
    const handTuple = fc
      .tuple(space, fc.constantFrom('1', '0.5', '-0', '2e-3'), space, fc.array(fc.tuple(space, value, space), { maxLength: 3 }), space)
      .map(([a, score, b, values, c]) => `${a}${score}${b}(${values.map(([x, v, y]) => `${x}${v}${y}`).join(',')})${c}`)
    fc.assert(
      fc.property(fc.array(handTuple, { minLength: 1, maxLength: 4 }), (tuples) => {
        const written = tuples.join('|')
        const first = parseTupleList(written)
        expect(first.ok).toBe(true)
        if (!first.ok) return
        expect(parseTupleList(formatTupleList(first.value))).toEqual(first)
      }),
      { numRuns: 2000 },
    )
  })

  it('never throws on any text, and reads or names a position inside it', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('1', '(', ')', '"', '\\', ',', '|', ' ', 'a', 'é'), { maxLength: 14 }).map((p) => p.join('')), (input) => {
        const result = parseTupleList(input)
        if (!result.ok) {
          expect(result.error.position).toBeGreaterThanOrEqual(0)
          expect(result.error.position).toBeLessThanOrEqual(input.length)
        }
      }),
      { numRuns: 2000 },
    )
  })
})
