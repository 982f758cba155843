import { describe, expect, it } from 'vitest'
import { BIDI_CONTROL_CODES, controlEscape, visibleControls } from '../../src/shared/text/visible-controls'

describe('visibleControls', () => {
  it('shows the RLO of a spoofed file name as a visible escape', () => {
    expect(visibleControls('Invoice\u202Etxt.exe')).toBe('Invoice⟨U+202E⟩txt.exe')
    expect(visibleControls('Ann\u202Eexe.txt')).toBe('Ann⟨U+202E⟩exe.txt')
  })

  it.each([
    ['\u202A', 'LRE', '⟨U+202A⟩'],
    ['\u202B', 'RLE', '⟨U+202B⟩'],
    ['\u202C', 'PDF', '⟨U+202C⟩'],
    ['\u202D', 'LRO', '⟨U+202D⟩'],
    ['\u202E', 'RLO', '⟨U+202E⟩'],
    ['\u2066', 'LRI', '⟨U+2066⟩'],
    ['\u2067', 'RLI', '⟨U+2067⟩'],
    ['\u2068', 'FSI', '⟨U+2068⟩'],
    ['\u2069', 'PDI', '⟨U+2069⟩'],
    ['\u200E', 'LRM', '⟨U+200E⟩'],
    ['\u200F', 'RLM', '⟨U+200F⟩'],
    ['\u061C', 'ALM', '⟨U+061C⟩'],
  ])('escapes %j (%s) alone and between letters', (char, _name, escape) => {
    expect(visibleControls(char)).toBe(escape)
    expect(visibleControls(`a${char}b`)).toBe(`a${escape}b`)
  })

  it('lists the same twelve characters it escapes', () => {
    expect(BIDI_CONTROL_CODES).toHaveLength(12)
    for (const code of BIDI_CONTROL_CODES) expect(visibleControls(String.fromCharCode(code))).toBe(controlEscape(code))
  })

  it('escapes every one of several, and a run of them, leaving no control behind', () => {
    const text = '\u2067abc\u2069 \u202D\u202E1\u202C\u200F'
    expect(visibleControls(text)).toBe('⟨U+2067⟩abc⟨U+2069⟩ ⟨U+202D⟩⟨U+202E⟩1⟨U+202C⟩⟨U+200F⟩')
    expect(visibleControls(text)).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/)
  })

  it('leaves Arabic and Hebrew text, and mixed-direction text, as it is', () => {
    for (const text of ['مدينة الرياض', 'תל אביב-יפו', 'Sanaa صنعاء 71137', '١٢٣ abc']) expect(visibleControls(text)).toBe(text)
  })

  it('leaves other text as it is: plain, empty, emoji, other invisible and format characters', () => {
    for (const text of ['', 'City 1', 'https://host/ws/api/a?x=1', '👩‍💻 dev', 'zero\u200Bwidth', 'soft\u00ADhyphen', 'joiner\u200D', 'line\u2028sep', 'tab\tnew\nline']) {
      expect(visibleControls(text)).toBe(text)
    }
  })

  it('writes the escape as U+ and four upper-case hex digits in angle brackets', () => {
    expect(controlEscape(0x61c)).toBe('⟨U+061C⟩')
    expect(controlEscape(0x202e)).toBe('⟨U+202E⟩')
  })
})
