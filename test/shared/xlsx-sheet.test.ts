import { describe, expect, it } from 'vitest'
import { SharedStrings, columnLetters, rowSpan, rowXml, xmlEncode } from '../../src/shared/export/xlsx-sheet'

/**
 * A worksheet's rows and shared strings as exceljs writes them, worked by
 * hand (test/main/export-xlsx.test.ts and test/service/xlsx.test.ts hold
 * whole sheets to exceljs byte for byte): column letters, what text becomes,
 * which cells and rows are written at all.
 */

describe('xlsx sheet', () => {
  it('column letters run A…Z, AA…AZ, BA…, ZZ, AAA, up to Excel’s last column XFD', () => {
    expect([1, 26, 27, 52, 53, 702, 703, 16384].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD'])
    expect(columnLetters(2)).toBe('B')
  })

  it('text: the five XML characters as entities, controls XML cannot hold dropped, tab and line ends kept', () => {
    expect(xmlEncode(`a<b>&'"`)).toBe('a&lt;b&gt;&amp;&apos;&quot;')
    expect(xmlEncode('\u0000x\u0008y\u007F\u001Fz')).toBe('xyz')
    expect(xmlEncode('a\tb\nc\rd')).toBe('a\tb\nc\rd')
    expect(xmlEncode('São Paulo 🙂')).toBe('São Paulo 🙂')
  })

  it('shared strings: each text once, numbered as first met, every use counted, edge white space preserved', () => {
    const strings = new SharedStrings()
    expect(['name', 'x', 'name', ' lead', 'a\nb', 'x'].map((text) => strings.add(text))).toEqual([0, 1, 0, 2, 3, 1])
    expect(strings.xml()).toBe(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="6" uniqueCount="4">' +
        '<si><t>name</t></si><si><t>x</t></si><si><t xml:space="preserve"> lead</t></si><si><t xml:space="preserve">a\nb</t></si></sst>',
    )
  })

  it('a row spans its empty cells too but not missing ones, and writes numbers, booleans as 1/0, and text in the cell', () => {
    expect(rowSpan([undefined, 'a', null, undefined])).toEqual({ min: 2, max: 3 })
    expect(rowSpan([])).toEqual({ min: 0, max: 0 })
    expect(rowXml(3, ['a<', 2.5, true, null, undefined, false])).toBe(
      '<row r="3" spans="1:6" x14ac:dyDescent="0.25"><c r="A3" t="str"><v>a&lt;</v></c><c r="B3"><v>2.5</v></c><c r="C3" t="b"><v>1</v></c><c r="F3" t="b"><v>0</v></c></row>',
    )
  })

  it('a styled header row writes its empty cells and styles each; text goes to shared strings when given', () => {
    const strings = new SharedStrings()
    expect(rowXml(1, ['h', null], { strings, style: 1 })).toBe(
      '<row r="1" spans="1:2" s="1" customFormat="1" x14ac:dyDescent="0.25"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="1"/></row>',
    )
  })

  it('a row of empty cells is not written, unless the form keeps it; a row with no cells never is', () => {
    expect(rowXml(2, [null, null])).toBe('')
    expect(rowXml(2, [null, null], { keepEmpty: true })).toBe('<row r="2" spans="1:2" x14ac:dyDescent="0.25"/>')
    expect(rowXml(2, [undefined], { keepEmpty: true })).toBe('')
    expect(rowXml(2, [], { keepEmpty: true })).toBe('')
  })
})
