import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { BUILT_IN_NUMBER_FORMATS, isDateFormat, numberStyles, onlySheetPart, sharedStrings } from '../../src/main/export/xlsx-parts'

/**
 * A plain workbook's parts besides its sheet, read as exceljs reads them:
 * the one sheet, the shared strings, which styles keep a number a number;
 * null wherever exceljs's reading is not that simple.
 */

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
const xml = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${text}`, 'utf8')
const book = (sheets: string) => xml(`<workbook ${NS}><sheets>${sheets}</sheets></workbook>`)
const rels = (targets: Record<string, string>) =>
  xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${Object.entries(targets).map(([id, target]) => `<Relationship Id="${id}" Target="${target}"/>`).join('')}</Relationships>`)
const styles = (numFmts: string, xfs: string[], lists = '<fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders>') =>
  xml(`<styleSheet ${NS}>${numFmts}${lists}<cellXfs count="${xfs.length}">${xfs.map((id) => `<xf numFmtId="${id}"/>`).join('')}</cellXfs></styleSheet>`)

describe('xlsx parts', () => {
  it("knows exceljs's built-in number formats, and its rule for a date format", () => {
    const require = createRequire(import.meta.url)
    const defaults = require('exceljs/lib/xlsx/defaultnumformats.js') as Record<string, { f?: string }>
    const withCode = Object.fromEntries(Object.entries(defaults).flatMap(([id, format]) => (format.f ? [[Number(id), format.f]] : [])))
    expect(BUILT_IN_NUMBER_FORMATS).toEqual(withCode)
    const utils = require('exceljs/lib/utils/utils.js') as { isDateFmt(format: string): boolean }
    for (const format of [...Object.values(withCode), '#,##0.000\\ "km"', '[Red]0.00', '"day "0', 'yyyy-mm-dd', '[h]:mm', '0.0 "ms"', 'b'])
      expect(isDateFormat(format), format).toBe(utils.isDateFmt(format))
  })


  it('finds the one sheet through its relationship, and gives null for two sheets, a missing part or a target elsewhere', () => {
    const files = (sheets: string, targets: Record<string, string>, parts = ['xl/worksheets/sheet1.xml']) =>
      new Map<string, Buffer>([['xl/workbook.xml', book(sheets)], ['xl/_rels/workbook.xml.rels', rels(targets)], ...parts.map((part): [string, Buffer] => [part, xml('<worksheet/>')])])
    const one = '<sheet name="results" sheetId="1" r:id="rId1"/>'
    expect(onlySheetPart(files(one, { rId1: 'worksheets/sheet1.xml' }))).toBe('xl/worksheets/sheet1.xml')
    // An absolute target; the last relationship of an id wins.
    expect(onlySheetPart(files(one, { rId1: '/xl/worksheets/sheet1.xml' }))).toBe('xl/worksheets/sheet1.xml')
    expect(onlySheetPart(files(one, { rId1: 'worksheets/sheet9.xml' }))).toBeNull()
    expect(onlySheetPart(files('<sheet name="results" sheetId="0" r:id="rId1"/>', { rId1: 'worksheets/sheet1.xml' }))).toBeNull()
    expect(onlySheetPart(files(one, { rId1: 'worksheets/sheet1.xml' }, ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']))).toBeNull()
    expect(onlySheetPart(new Map([['xl/worksheets/sheet1.xml', xml('<worksheet/>')]]))).toBeNull()
  })

  it('reads shared strings, decoding entities and _xHHHH_ escapes; rich text is not plain', () => {
    expect(sharedStrings(xml(`<sst ${NS}><si><t>rank</t></si><si><t xml:space="preserve"> a &amp; b_x0009_</t></si><si><t></t></si></sst>`))).toEqual(['rank', ' a & b\t', ''])
    expect(sharedStrings(xml(`<sst ${NS}></sst>`))).toEqual([])
    expect(sharedStrings(xml(`<sst ${NS}><si><r><t>a</t></r></si></sst>`))).toBeNull()
    expect(sharedStrings(xml(`<sst ${NS}><si><t>a</t><t>b</t></si></sst>`))).toBeNull()
    expect(sharedStrings(xml('<other/>'))).toBeNull()
  })

  it('says which cell styles keep a number a number: not a date format, built in or defined', () => {
    // 0 General, 2 "0.00", 14 a built-in date, 164 a defined number format, 165 a defined date format.
    const numFmts = '<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0\\ &quot;km&quot;"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd"/></numFmts>'
    expect(numberStyles(styles(numFmts, ['0', '2', '14', '164', '165']))).toEqual([true, true, false, true, false])
    // exceljs needs the fonts, fills and borders lists to read a styled cell; a numFmt without its code is not plain.
    expect(numberStyles(styles('', ['0'], '<fonts count="1"><font/></fonts>'))).toBeNull()
    expect(numberStyles(styles('<numFmts count="1"><numFmt numFmtId="164"/></numFmts>', ['164']))).toBeNull()
  })
})
