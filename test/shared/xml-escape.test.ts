import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import { xmlAllowed, xmlAttribute, xmlText } from '../../src/shared/text/xml-escape'

/** Writes the value as an attribute and as the text of one element, parses that strictly, and returns what a reader gets. */
function readBack(value: string): { attribute: string; text: string } {
  const parser = new SaxesParser({ xmlns: false })
  let attribute = ''
  let text = ''
  parser.on('error', (error) => {
    throw error
  })
  let inside = false
  parser.on('opentag', (tag) => {
    attribute = (tag.attributes as Record<string, string>).a ?? ''
    inside = true
  })
  parser.on('closetag', () => (inside = false))
  parser.on('text', (chunk) => {
    if (inside) text += chunk
  })
  parser.write(`<?xml version="1.0" encoding="UTF-8"?>\n<e a="${xmlAttribute(value)}">${xmlText(value)}</e>`).close()
  return { attribute, text }
}

describe('xml escaping (the service\'s xml answers and the JUnit report)', () => {
  it('escapes markup and drops what XML 1.0 forbids: C0 controls but TAB, LF and CR, U+FFFE, U+FFFF, lone surrogates', () => {
    expect(xmlText('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;')
    expect(xmlText('\u0000\u0001\u0008\u000B\u000C\u001F x \uFFFE\uFFFF\uDFFF\uD800')).toBe(' x ')
    // A surrogate pair is one character, and allowed.
    expect(xmlText('\uD83D\uDE00')).toBe('\uD83D\uDE00')
    expect(xmlAllowed('a\tb\nc\rd\u0085\u007F')).toBe('a\tb\nc\rd\u0085\u007F')
  })

  it('keeps TAB, LF and CR through a parser: references where a raw one would be normalized', () => {
    expect(xmlText('a\tb\nc\r\nd')).toBe('a\tb\nc&#13;\nd')
    expect(xmlAttribute('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d')
    expect(readBack('a\tb\r\nc\rd')).toEqual({ attribute: 'a\tb\r\nc\rd', text: 'a\tb\r\nc\rd' })
  })

  it('any text gives a well-formed document that reads back as the text without its forbidden characters', () => {
    const unit = fc.oneof(fc.constantFrom('<', '>', '&', '"', "'", '\t', '\n', '\r', '\u0000', '\u0001', '\u001F', '\uFFFE', '\uFFFF', '\uD800', '\uDC00', ']]>'), fc.string({ unit: 'binary' }))
    fc.assert(
      fc.property(fc.array(unit).map((parts) => parts.join('')), (value) => {
        const expected = xmlAllowed(value)
        expect(readBack(value)).toEqual({ attribute: expected, text: expected })
      }),
    )
  })
})
