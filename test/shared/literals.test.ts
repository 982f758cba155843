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

  it("a shell word is the single-quoted text unless a hidden character needs bash's $'…' escapes, which bash reads back in any locale", () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`)
    const hidden = "a'b\\c\u202Ed\u{E0001}\n"
    // A hidden character is written as its UTF-8 bytes (\xHH): bash's \u escapes become characters only under a UTF-8 locale.
    expect(shellWord(hidden)).toBe("$'a\\'b\\\\c\\xe2\\x80\\xaed\\xf3\\xa0\\x80\\x81\\x0a'")
    for (const locale of ['C.UTF-8', 'C', 'POSIX']) expect(bashPrints(`printf '%s' ${shellWord(hidden)}`, { LC_ALL: locale }), locale).toBe(hidden)
    // A lone surrogate has no UTF-8 bytes: it is written as U+FFFD, as every encoder writes it.
    expect(shellWord('x\uD800')).toBe("$'x\\xef\\xbf\\xbd'")
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
