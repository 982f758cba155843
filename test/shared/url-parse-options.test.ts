import { describe, expect, it } from 'vitest'
import { parseOptions } from '../../src/shared/query/url-parse-options'

/** The query string read into the request's options: typed, in canonical order, unknown ones kept after the known. */

const options = (search: string) => parseOptions(search, 0, search.length)
const error = (search: string) => {
  const read = options(search)
  return read.ok ? null : read.error
}

describe('parseOptions', () => {
  it('reads nothing from an empty query string', () => {
    expect(options('')).toEqual({ ok: true, value: {} })
    expect(options('?')).toEqual({ ok: true, value: {} })
    expect(options('?&&')).toEqual({ ok: true, value: {} })
  })

  it('reads each known option as its type', () => {
    expect(options('?config=production&count=25&offset=50&format=csv&level=0&homogeneousArrays=true&cutoff=0.5&rank=2&column=3&multiselect=false')).toEqual({
      ok: true,
      value: { config: 'production', count: 25, offset: 50, format: 'csv', level: 0, homogeneousArrays: true, cutoff: 0.5, rank: 2, column: 3, multiselect: false },
    })
  })

  it('gives the options in canonical order, the unknown ones last in the order written', () => {
    const read = options('?x=1&offset=3&count=2&a+b=c%26d&flag')
    expect(read).toEqual({ ok: true, value: { count: 2, offset: 3, extra: { x: '1', 'a b': 'c&d', flag: '' } } })
    expect(read.ok && Object.keys(read.value)).toEqual(['count', 'offset', 'extra'])
    expect(read.ok && Object.keys(read.value.extra!)).toEqual(['x', 'a b', 'flag'])
  })

  it('reads + and %20 as a space, in names and values', () => {
    expect(options('?config=my+config%20two')).toEqual({ ok: true, value: { config: 'my config two' } })
  })

  it('reads only its range of the text', () => {
    const url = 'https://h/w/api/a/e/s?count=5&cutoff=0.25#level=9'
    expect(parseOptions(url, url.indexOf('?'), url.indexOf('#'))).toEqual({ ok: true, value: { count: 5, cutoff: 0.25 } })
  })

  it('takes an option given twice with the same value, and refuses two values', () => {
    expect(options('count=5&count=5.0')).toEqual({ ok: true, value: { count: 5 } })
    // -0 is 0: not two values that would print alike ("0" and "0").
    expect(options('cutoff=-0&cutoff=0')).toEqual({ ok: true, value: { cutoff: 0 } })
    expect(error('count=5&count=6')).toEqual({ segment: 'count=6', message: 'option count is given twice with different values ("5" and "6")' })
    expect(error('dev=a&dev=b')).toEqual({ segment: 'dev=b', message: 'option dev is given twice with different values ("a" and "b")' })
  })

  it('refuses a number that is none, a flag that is neither true nor false, a nameless option and bad encoding, naming the part', () => {
    expect(error('count=ten')).toEqual({ segment: 'count=ten', message: 'option count must be a number, not "ten"' })
    expect(error('offset')).toEqual({ segment: 'offset', message: 'option offset must be a number, not ""' })
    expect(error('multiselect=yes')).toEqual({ segment: 'multiselect=yes', message: 'option multiselect must be true or false, not "yes"' })
    expect(error('=name')).toEqual({ segment: '=name', message: 'an option needs a name before "=" (got "=name")' })
    expect(error('config=%')).toEqual({ segment: '%', message: 'option config "%" is not valid percent-encoding' })
    expect(error('%zz=1')).toEqual({ segment: '%zz', message: 'option name "%zz" is not valid percent-encoding' })
  })
})
