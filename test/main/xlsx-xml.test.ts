import { describe, expect, it } from 'vitest'
import { decodeXmlText, scanSheetXml, scanXml, type XmlHandler } from '../../src/main/export/xlsx-xml'

/**
 * The strict reader of a workbook's plain XML: what it reads it gives as a
 * conforming parser would (line ends, entities, references decoded); what a
 * plain part never holds makes it answer false, so the page goes to exceljs.
 */

/** A handler that records every call as a line, and reads everything. */
function recorder(): { events: string[]; handler: XmlHandler } {
  const events: string[] = []
  return {
    events,
    handler: {
      open: (name, attributes, selfClosing) => (events.push(`<${name}${Object.entries(attributes).map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join('')}${selfClosing ? '/' : ''}>`), true),
      close: (name) => (events.push(`</${name}>`), true),
      text: (text) => (events.push(JSON.stringify(text)), true),
    },
  }
}

const scanned = (xml: string): string[] | false => {
  const { events, handler } = recorder()
  return scanXml(xml, handler) ? events : false
}

describe('xlsx xml', () => {
  it('decodes line ends, the five entities and character references; an unknown or forbidden one is not plain', () => {
    expect(decodeXmlText('a\r\nb\rc\nd')).toBe('a\nb\nc\nd')
    expect(decodeXmlText('&lt;&gt;&amp;&quot;&apos; &#233;&#x1F642;')).toBe('<>&"\' é🙂')
    expect(decodeXmlText('plain')).toBe('plain')
    expect(decodeXmlText('&nbsp;')).toBeNull()
    expect(decodeXmlText('&#1;')).toBeNull()
    expect(decodeXmlText('&#xD800;')).toBeNull()
    expect(decodeXmlText('&#x110000;')).toBeNull()
    expect(decodeXmlText('a & b')).toBeNull()
  })

  it('reads elements, attributes (decoded) and text in order, after a declaration and a byte order mark', () => {
    expect(scanned('\uFEFF<?xml version="1.0"?>\r\n<a x="1" y=\'&amp;\'><b/>t&#65;\r\n<c>z</c></a>\n')).toEqual([
      '<a x="1" y="&">',
      '<b/>',
      '</b>',
      '"tA\\n"',
      '<c>',
      '"z"',
      '</c>',
      '</a>',
    ])
  })

  it('answers false for what a plain part never holds', () => {
    for (const xml of [
      '<!DOCTYPE a><a/>',
      '<a><!-- c --></a>',
      '<a><![CDATA[x]]></a>',
      '<a><?pi x?></a>',
      '<a>&nbsp;</a>',
      '<a>\u0001</a>',
      '<a><b></a></b>',
      '<a>',
      '<a/><b/>',
      'text<a/>',
      '<a x="1" x="2"/>',
      '<a constructor="x"/>',
      '<a x="line\nbreak"/>',
      '<a x=1/>',
      '',
    ])
      expect(scanned(xml), JSON.stringify(xml)).toBe(false)
  })

  it('stops when the handler refuses', () => {
    expect(scanXml('<a><b/></a>', { open: (name) => name === 'a', close: () => true, text: () => true })).toBe(false)
  })

  it('reads a sheet with its rows handed over, their bounds the text between <sheetData> and its end', () => {
    const xml = '<worksheet><dimension ref="A1"/><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData><after/></worksheet>'
    const { events, handler } = recorder()
    let rows = ''
    expect(scanSheetXml(xml, handler, (from, to) => ((rows = xml.slice(from, to)), true))).toBe(true)
    expect(rows).toBe('<row r="1"><c r="A1"><v>1</v></c></row>')
    // The rows left out of the handler's calls; the rest read as scanXml reads it.
    expect(events).toEqual(['<worksheet>', '<dimension ref="A1"/>', '</dimension>', '<sheetData>', '</sheetData>', '<after/>', '</after>', '</worksheet>'])
    // The rows' reader gives up, no sheetData, or a forbidden character among the rows: null.
    expect(scanSheetXml(xml, recorder().handler, () => null)).toBeNull()
    expect(scanSheetXml('<worksheet/>', recorder().handler, () => true)).toBeNull()
    expect(scanSheetXml('<worksheet><sheetData>\u0001</sheetData></worksheet>', recorder().handler, () => true)).toBeNull()
  })
})
