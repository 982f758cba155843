import { describe, expect, it } from 'vitest'
import { pyString, shellQuote, shellWord, tsString } from '../../src/shared/copy-as/literals'
import { HOSTILE, bashPrints } from '../fixtures/copy-as'

/**
 * The literals "Copy as" writes values with: each reads back as exactly the
 * value given, none can close its quotes, and none holds a hidden or
 * reordering character raw (a U+202E would make the line shown lie).
 */

describe('literals', () => {
  it('shell quoting gives bash back a value with quotes, $, backticks and newlines exactly, running nothing', () => {
    expect(bashPrints(`printf '%s' ${shellQuote(HOSTILE)}`)).toBe(HOSTILE)
  })

  it("a shell word is the single-quoted text unless a hidden character needs bash's $'…' escapes, which bash reads back", () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`)
    const hidden = "a'b\\c\u202Ed\u{E0001}"
    expect(shellWord(hidden)).toBe("$'a\\'b\\\\c\\u202ed\\U000e0001'")
    // bash turns \u escapes into characters only under a UTF-8 locale (under C it prints them as written).
    expect(bashPrints(`printf '%s' ${shellWord(hidden)}`, { LC_ALL: 'C.UTF-8' })).toBe(hidden)
  })

  it('a TypeScript string is JSON with every hidden code unit as \\uXXXX, and reads back as the value', () => {
    const value = 'say "hi"\n\u202E\u200B😀'
    expect(tsString(value)).toBe('"say \\"hi\\"\\n\\u202e\\u200b😀"')
    expect(JSON.parse(tsString(value))).toBe(value)
    expect(tsString('\u2028')).toBe('"\\u2028"')
  })

  it('a Python string escapes quotes, backslashes and controls, and writes a hidden code point above U+FFFF as \\UXXXXXXXX', () => {
    expect(pyString('a"b\\c\n\r\t')).toBe('"a\\"b\\\\c\\n\\r\\t"')
    expect(pyString('\u202E\u{E0001}😀é')).toBe('"\\u202e\\U000e0001😀é"')
    expect(pyString('')).toBe('""')
  })
})
