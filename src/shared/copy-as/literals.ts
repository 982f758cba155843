/**
 * Values written into the programs "Copy as" prints: a shell word, a
 * TypeScript string and a Python string that each read back as exactly the
 * value given. A value is a stranger's text (a pasted URL, a shared workspace
 * file), so none may close its quotes, and none may hold an invisible or
 * reordering character raw: code shown to a person must read as what it
 * runs (a U+202E in a literal would make the line lie).
 */

/** Control, format (bidi, zero-width), surrogate, private-use and unassigned code points, and the line and paragraph separators. */
const HIDDEN = /[\p{C}\u2028\u2029]/u
const HIDDEN_ALL = /[\p{C}\u2028\u2029]/gu

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0')

/** One word for a POSIX shell: single quotes keep everything literal; a quote inside closes, escapes and reopens. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/**
 * `shellQuote`, or bash's `$'…'` with escapes when the value holds a hidden
 * character: its UTF-8 bytes as `\xHH`, which bash reads back as those bytes
 * in any locale (`\uXXXX` becomes the character only under a UTF-8 one, and
 * under C or POSIX stays as written).
 */
export function shellWord(value: string): string {
  if (!HIDDEN.test(value)) return shellQuote(value)
  let out = ''
  for (const ch of value) {
    if (ch === '\\' || ch === "'") out += `\\${ch}`
    else if (HIDDEN.test(ch)) out += utf8Bytes(ch.codePointAt(0)!).map((byte) => `\\x${hex(byte, 2)}`).join('')
    else out += ch
  }
  return `$'${out}'`
}

/** A code point's UTF-8 bytes (a lone surrogate as U+FFFD's, as every encoder writes it). */
function utf8Bytes(code: number): number[] {
  if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd
  if (code < 0x80) return [code]
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 0x3f)]
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
  return [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
}

/** A TypeScript (and JSON) string literal: JSON's escapes, and `\uXXXX` for every hidden code unit. */
export function tsString(value: string): string {
  return JSON.stringify(value).replace(HIDDEN_ALL, (ch) => {
    let out = ''
    for (let i = 0; i < ch.length; i++) out += `\\u${hex(ch.charCodeAt(i), 4)}`
    return out
  })
}

/**
 * A Python string literal. JSON's escapes are Python's too, except that
 * Python writes a code point above U+FFFF as `\UXXXXXXXX`, not as a pair.
 */
export function pyString(value: string): string {
  let out = '"'
  for (const ch of value) {
    const code = ch.codePointAt(0)!
    if (ch === '"' || ch === '\\') out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (HIDDEN.test(ch)) out += code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`
    else out += ch
  }
  return `${out}"`
}
