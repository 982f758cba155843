import { scanXml } from './xlsx-xml'

/**
 * The parts of a plain workbook besides its sheet, read as exceljs reads
 * them (xlsx-page.ts reads the sheet): which part is the one sheet, the
 * shared strings, and which cell styles keep a number a number. Each answers
 * null where exceljs's reading is not that simple, and the page is then
 * exceljs's to read.
 */

/** The parts exceljs reads as worksheets (its pattern, unanchored as it has it). */
const WORKSHEET_PART = /xl\/worksheets\/sheet(\d+)[.]xml/

/**
 * The number formats exceljs knows by id without a definition in the
 * workbook (its defaultnumformats.js, the ids with a format of their own).
 * Only 14–22 are dates; the test compares this list with exceljs's.
 */
export const BUILT_IN_NUMBER_FORMATS: Readonly<Record<number, string>> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yy "h":mm',
  37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00 ;(#,##0.00)', 40: '#,##0.00 ;[Red](#,##0.00)', 45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
}

/** exceljs's isDateFmt: a format shows a date when, outside quotes and brackets, it holds one of y m d h M s b. */
export function isDateFormat(format: string | undefined): boolean {
  if (!format) return false
  return /[ymdhMsb]+/.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''))
}

/** Reads the elements at `path` (names from the root down) of one part; null when the part is not plain XML. */
function elementsAt(xml: Buffer, path: readonly string[]): Record<string, string>[] | null {
  const found: Record<string, string>[] = []
  const open: string[] = []
  const plain = scanXml(xml.toString('utf8'), {
    open(name, attributes) {
      open.push(name)
      if (open.length === path.length && open.every((part, i) => part === path[i])) found.push(attributes)
      return true
    },
    close() {
      open.pop()
      return true
    },
    text: () => true,
  })
  return plain ? found : null
}

/** The workbook's one sheet part, when it has one sheet that its relationships name as exceljs resolves them; else null. */
export function onlySheetPart(files: ReadonlyMap<string, Buffer>): string | null {
  const parts = [...files.keys()].filter((name) => WORKSHEET_PART.test(name))
  const book = files.get('xl/workbook.xml')
  const rels = files.get('xl/_rels/workbook.xml.rels')
  if (parts.length !== 1 || !book || !rels) return null
  const sheets = elementsAt(book, ['workbook', 'sheets', 'sheet'])
  const relationships = elementsAt(rels, ['Relationships', 'Relationship'])
  if (sheets?.length !== 1 || !relationships || sheets[0]!['r:id'] === undefined) return null
  // exceljs files sheets by their sheetId; one it cannot (0, not a number) it may not find.
  if (!/^[1-9]\d*$/.test(sheets[0]!.sheetId ?? '')) return null
  // The last relationship of an id wins, as in exceljs's map of them.
  const target = relationships.filter((rel) => rel.Id === sheets[0]!['r:id']).at(-1)?.Target
  if (target === undefined) return null
  return `xl/${target.replace(/^(\s|\/xl\/)+/, '')}` === parts[0] ? parts[0]! : null
}

/** The shared strings, each one `<t>` (exceljs decodes `_xHHHH_` in them); null when one is rich text or otherwise not plain. */
export function sharedStrings(xml: Buffer): string[] | null {
  const strings: string[] = []
  const open: string[] = []
  let text: string | null = null
  let parts = 0
  const plain = scanXml(xml.toString('utf8'), {
    open(name) {
      open.push(name)
      if (open.length === 1) return name === 'sst'
      if (open.length === 2) {
        if (name !== 'si') return false
        text = null
        parts = 0
        return true
      }
      // A string is one <t>: rich text (<r>), phonetic runs and the like are exceljs's to read.
      if (open.length === 3 && name === 't' && parts++ === 0) {
        text = ''
        return true
      }
      return false
    },
    close(name) {
      open.pop()
      if (name === 'si' && open.length === 1) {
        if (text === null) return false
        strings.push(text.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))))
      }
      return true
    },
    text(chunk) {
      if (open.length === 3) text += chunk
      return true
    },
  })
  return plain ? strings : null
}

/**
 * For each cell style (an index into cellXfs), whether a number in it stays a
 * number; null when the part is not one exceljs reads without failing for
 * a styled cell (it needs the fonts, fills, borders and cellXfs lists).
 */
export function numberStyles(xml: Buffer): boolean[] | null {
  const formats = new Map<number, string>()
  const xfs: Record<string, string>[] = []
  const lists = { fonts: 0, fills: 0, borders: 0, cellXfs: 0 }
  const open: string[] = []
  let complete = true
  const plain = scanXml(xml.toString('utf8'), {
    open(name, attributes) {
      open.push(name)
      if (open.length === 1) return name === 'styleSheet'
      if (open.length !== 3) return true
      const list = open[1]!
      if (list === 'numFmts' && name === 'numFmt') {
        if (attributes.formatCode === undefined) complete = false
        // exceljs drops the backslashes that escape a format's characters.
        else formats.set(parseInt(attributes.numFmtId ?? '', 10), attributes.formatCode.replace(/[\\](.)/g, '$1'))
      }
      if (list === 'cellXfs' && name === 'xf') xfs.push(attributes)
      if (list in lists) lists[list as keyof typeof lists]++
      return true
    },
    close() {
      open.pop()
      return true
    },
    text: () => true,
  })
  if (!plain || !complete || Object.values(lists).some((count) => count === 0)) return null
  return xfs.map((xf) => {
    const id = parseInt(xf.numFmtId ?? '', 10)
    return !id || !isDateFormat(formats.get(id) || BUILT_IN_NUMBER_FORMATS[id])
  })
}
