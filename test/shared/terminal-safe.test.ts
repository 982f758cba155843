import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { terminalSafe } from '../../src/shared/text/terminal-safe'

const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f]/

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

  it('keeps a JSON text valid and meaning the same, since DEL and C1 become JSON escapes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const shown = terminalSafe(JSON.stringify({ value, text }, null, 2), { keepNewlines: true })
        expect(JSON.parse(shown)).toEqual(JSON.parse(JSON.stringify({ value, text })))
      }),
    )
  })
})
