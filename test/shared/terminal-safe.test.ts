import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { terminalJson, terminalSafe } from '../../src/shared/text/terminal-safe'
import { BIDI_CONTROL_CODES, controlEscape } from '../../src/shared/text/visible-controls'

const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const RAW_BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/
const BIDI = BIDI_CONTROL_CODES.map((code) => String.fromCharCode(code))

/** Text that often holds bidi controls (binary strings alone almost never pick one of the twelve). */
const withBidi = fc.string({ unit: fc.oneof(fc.constantFrom(...BIDI), fc.constantFrom('a', ' ', '"', '\\', '\n', '\u001b', '\u009b', 'ا'), fc.string({ unit: 'binary', maxLength: 1 })) })

describe('terminalSafe', () => {
  it('shows C0 controls as \\xHH (TAB, LF and CR by name), DEL and C1 as \\u00HH', () => {
    expect(terminalSafe('a\u001b[2Jb')).toBe(String.raw`a\x1b[2Jb`)
    expect(terminalSafe('\u001b]0;pwned\u0007')).toBe(String.raw`\x1b]0;pwned\x07`)
    expect(terminalSafe('\u0000\u0008\u000b\u000c\u001f')).toBe(String.raw`\x00\x08\x0b\x0c\x1f`)
    expect(terminalSafe('a\tb\nc\rd')).toBe(String.raw`a\tb\nc\rd`)
    expect(terminalSafe('\u007f\u0080\u009b31m\u009f')).toBe(String.raw`\u007f\u0080\u009b31m\u009f`)
  })

  it('leaves printable text alone, non-ASCII included', () => {
    const text = '✓ Zürich — 東京 "quoted" \\x1b ½ \u00a0 😀'
    expect(terminalSafe(text)).toBe(text)
  })

  it('keeps line feeds only when asked to, still escaping a CR', () => {
    expect(terminalSafe('one\ntwo\r\n\u001b', { keepNewlines: true })).toBe(String.raw`one` + '\n' + String.raw`two\r` + '\n' + String.raw`\x1b`)
  })

  it('leaves no control character in any text, and no new line unless kept', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(terminalSafe(text)).not.toMatch(RAW_CONTROL)
        expect(terminalSafe(text, { keepNewlines: true }).replace(/\n/g, '')).not.toMatch(RAW_CONTROL)
      }),
    )
  })

  it('keeps a JSON text valid and meaning the same, since DEL and C1 become JSON escapes and terminalJson writes bidi controls as JSON escapes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), withBidi, (value, text, bidi) => {
        const shown = terminalSafe(terminalJson(JSON.stringify({ value, text, bidi }, null, 2)), { keepNewlines: true })
        expect(JSON.parse(shown)).toEqual(JSON.parse(JSON.stringify({ value, text, bidi })))
        expect(shown).not.toMatch(RAW_BIDI)
      }),
    )
  })

  it('shows bidi controls as the visible escapes the app shows, so a name cannot reorder the line it is printed in', () => {
    expect(terminalSafe('✗ Invoice\u202Etxt.exe (12 ms)')).toBe('✗ Invoice⟨U+202E⟩txt.exe (12 ms)')
    for (const code of BIDI_CONTROL_CODES) expect(terminalSafe(`a${String.fromCharCode(code)}b`)).toBe(`a${controlEscape(code)}b`)
    expect(terminalSafe('\u001b\u202E\n', { keepNewlines: true })).toBe(String.raw`\x1b` + '⟨U+202E⟩\n')
    // Right-to-left letters are not controls: they stay.
    expect(terminalSafe('صنعاء')).toBe('صنعاء')
  })

  it('leaves no bidi control in any text', () => {
    fc.assert(
      fc.property(withBidi, (text) => {
        expect(terminalSafe(text)).not.toMatch(RAW_BIDI)
        expect(terminalSafe(text, { keepNewlines: true })).not.toMatch(RAW_BIDI)
      }),
    )
  })

  it('writes the bidi controls of a JSON text as JSON escapes, which parse back to the same characters', () => {
    const json = JSON.stringify({ name: 'Invoice\u202Etxt.exe' })
    expect(terminalJson(json)).toBe(String.raw`{"name":"Invoice\u202e` + 'txt.exe"}')
    expect(JSON.parse(terminalJson(json))).toEqual({ name: 'Invoice\u202Etxt.exe' })
    expect(terminalJson('{"a":"b"}')).toBe('{"a":"b"}')
  })
})
