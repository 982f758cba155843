import type { Cell } from './table-spool'
import { unreadablePage } from './page-error'
import { numberStyles, onlySheetPart, sharedStrings } from './xlsx-parts'
import { scanSheetXml, scanXml, type XmlHandler } from './xlsx-xml'
import { checkedZipEntries } from './zip-bounds'

/**
 * The rows of one xlsx page (the first is its header), each cell a plain
 * value as exceljs reads it: a number, text, true or false; an error's text.
 *
 * exceljs's reader (JSZip, a SAX parser, a model of every cell's style) took
 * ~10 ms a page of 100 rows, more than a quarter of an export's time. A page
 * as a server writes it is plain: one sheet, its values, its strings; that is
 * read here from the parts the zip check inflated already, in a fraction of
 * a millisecond, to the same values exceljs gives, rule for rule (the rules
 * are named where they are followed), whether its strings are shared
 * (exceljs's Workbook, the demo), inline, or in their cells (exceljs's
 * streaming writer, the export's own file). A workbook with anything else
 * (formulas, dates, merged or rich cells, a second sheet, XML this reader
 * does not read plainly) is read by exceljs as before, so no page reads
 * otherwise than it did; test/main/xlsx-page.test.ts holds the two readers
 * to the same values.
 */
export async function readXlsxPage(body: Buffer, maxUnpacked: number): Promise<Cell[][]> {
  const files = checkedZipEntries(body, maxUnpacked)
  if (typeof files === 'string') throw unreadablePage('xlsx', `${files}.`)
  return plainSheetRows(files) ?? (await excelJsRows(body))
}

/** exceljs's reading, for a workbook that is not plain. */
export async function excelJsRows(body: Buffer): Promise<Cell[][]> {
  const workbook = new (await excel()).Workbook()
  try {
    // exceljs declares its own Buffer type (an ArrayBuffer), which a Node Buffer does not match by name only.
    await workbook.xlsx.load(body as unknown as Parameters<typeof workbook.xlsx.load>[0])
  } catch {
    throw unreadablePage('xlsx', 'it is not a workbook that can be opened.')
  }
  const sheet = workbook.getWorksheet('results') ?? workbook.worksheets[0]
  if (!sheet) throw unreadablePage('xlsx', 'the workbook has no sheet.')
  const records: Cell[][] = []
  sheet.eachRow({ includeEmpty: false }, (row) => {
    // row.values is 1-based and sparse: Array.from turns its holes into empty cells.
    records.push(Array.from((row.values as unknown[]).slice(1), cellValue))
  })
  return records
}

/** exceljs, loaded by the first workbook that needs it: it is most of what a writer thread would load at its start. */
export async function excel(): Promise<typeof import('exceljs')> {
  const loaded = (await import('exceljs')) as typeof import('exceljs') & { default?: typeof import('exceljs') }
  return loaded.default ?? loaded
}

/** A cell as a plain value: a formula gives its last result, rich text its text, a link its text, a date its ISO form. */
function cellValue(value: unknown): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') {
    const v = value as { result?: unknown; richText?: { text?: unknown }[]; text?: unknown; error?: unknown }
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((part) => String(part.text ?? '')).join('')
    if ('formula' in v || 'sharedFormula' in v) return v.result === undefined ? null : cellValue(v.result)
    if ('text' in v) return cellValue(v.text)
    if ('error' in v) return String(v.error)
  }
  return String(value)
}

const AGAIN: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&apos;': "'", '&quot;': '"' }

/** exceljs's xmlDecode, which it applies to a `t="str"` cell's text after the parser decoded it once. */
function decodeAgain(text: string): string {
  return text.indexOf('&') < 0 ? text : text.replace(/&([a-z]*);/g, (entity) => AGAIN[entity] ?? entity)
}

/** A cell reference's column (A is 1) if it is a plain one (one to three capitals, then the row `row`) up to XFD; else 0. */
function cellColumn(ref: string | undefined, row: number): number {
  if (ref === undefined) return 0
  let col = 0
  let i = 0
  for (; i < ref.length && i < 3; i++) {
    const c = ref.charCodeAt(i)
    if (c < 65 || c > 90) break
    col = col * 26 + c - 64
  }
  // The rest is the row's number, written plainly (no sign, no leading zero).
  const rest = ref.slice(i)
  return i > 0 && col <= 16_384 && rest === String(row) ? col : 0
}

/** A row's start tag as writers give it: its attributes each as scanXml reads them plainly (one space, `="`, no reference, nothing a parser changes). */
const QUICK_ROW = /<row((?: [A-Za-z_:][-A-Za-z0-9_:.]*="[^"<&\t\n\r]*")*)>/y
const QUICK_ATTRIBUTE = / ([A-Za-z_:][-A-Za-z0-9_:.]*)="([^"<&\t\n\r]*)"/g
/** A cell as writers give it: a reference, maybe a style and a type read from a <v>, then no value or one in <v> without `&` or CR. */
const QUICK_CELL = /<c r="([A-Z]{1,3}[1-9]\d*)"(?: s="(\d+)")?(?: t="(s|str|n|b|e)")?(?:\/>|><v>([^<&\r]*)<\/v><\/c>)/y

/** The values of a plain workbook's one sheet, rows with a value only (as exceljs's eachRow without empty rows); else null. */
export function plainSheetRows(files: ReadonlyMap<string, Buffer>): Cell[][] | null {
  const part = onlySheetPart(files)
  if (!part) return null
  const stringsPart = files.get('xl/sharedStrings.xml')
  const read = stringsPart ? sharedStrings(stringsPart) : []
  if (!read) return null
  const strings: readonly string[] = read
  const stylesPart = files.get('xl/styles.xml')
  let styles: boolean[] | null | undefined
  const xml = files.get(part)!.toString('utf8')
  /** The rows as `scan` reads the sheet; null when it is not plain, undefined when `scan` gave it up (null). */
  const sheetRows = (scan: (handler: XmlHandler, quickRows: (from: number, to: number) => true | null) => boolean | null): Cell[][] | null | undefined => {
    const rows: Cell[][] = []
    const open: string[] = []
    let sheetData = 0
    let row: { number: number; cells: Cell[]; lastCol: number; valued: boolean } | null = null
    let lastRow = 0
    let cell: { col: number; type: string | undefined; style: number; value: string | undefined; inline: boolean; v: boolean } | null = null
    // Where text counts: in the cell's <v>, or in the <t> of its <is>.
    let collecting = false

    const endCell = (): boolean => {
      const { col, type, style, value } = cell!
      cell = null
      if (style) {
        // exceljs looks up the style of every styled cell, and fails where the styles part does not hold it.
        if (styles === undefined) styles = stylesPart ? numberStyles(stylesPart) : []
        if (styles === null) return false
      }
      // No value: an empty cell (one without a style too: exceljs takes it for part of a merged range and leaves it out).
      if (value === undefined) return true
      let typed: Cell
      switch (type) {
        case 's': {
          const shared = strings[parseInt(value, 10)]
          if (shared === undefined) return false
          typed = shared
          break
        }
        case 'inlineStr':
          typed = value
          break
        case 'str':
          // Text in the cell, as exceljs's streaming writer writes it; exceljs decodes its entities a second time.
          typed = decodeAgain(value)
          break
        case 'b':
          typed = parseInt(value, 10) !== 0
          break
        case 'e':
          // An error reads as its text (#N/A, #DIV/0!).
          typed = value
          break
        case undefined:
        case 'n':
          // A number in a date format is a date to exceljs: its ISO text is exceljs's to give.
          if (style && styles && styles[style] === false) return false
          typed = parseFloat(value)
          break
        default:
          // 'd' (a date) and what else a writer may put are exceljs's to read.
          return false
      }
      while (row!.cells.length < col - 1) row!.cells.push(null)
      row!.cells.push(typed)
      row!.valued = true
      return true
    }

    /**
     * The rows between `from` and `to` (in a sheetData the handler below just opened), each `<row …>` of cells
     * `<c r="…" s="…" t="…"/>` or with `<v>text</v>` (s and t optional, t one endCell reads from a <v>, text without
     * `&` or CR), read to the state the handler would leave; null when they are not all in that form.
     */
    const quickRows = (from: number, to: number): true | null => {
      if (open.length !== 2 || open[1] !== 'sheetData' || sheetData !== 1) return null
      let i = from
      while (i < to) {
        QUICK_ROW.lastIndex = i
        const opened = QUICK_ROW.exec(xml)
        if (!opened) return null
        // As scanXml reads attributes: a name read twice, or one an object holds already, is not plain.
        const attributes: Record<string, string> = {}
        for (const [, name, value] of opened[1]!.matchAll(QUICK_ATTRIBUTE)) {
          if (name! in attributes) return null
          attributes[name!] = value!
        }
        const number = /^[1-9]\d*$/.test(attributes.r ?? '') ? Number(attributes.r) : 0
        if (number <= lastRow) return null
        lastRow = number
        row = { number, cells: [], lastCol: 0, valued: false }
        i = QUICK_ROW.lastIndex
        while (!xml.startsWith('</row>', i)) {
          QUICK_CELL.lastIndex = i
          const c = QUICK_CELL.exec(xml)
          if (!c) return null
          const col = cellColumn(c[1], row.number)
          if (col <= row.lastCol) return null
          row.lastCol = col
          // An empty <v> leaves the value undefined, as in scanXml's reading (no text, no call).
          cell = { col, type: c[3], style: c[2] === undefined ? 0 : parseInt(c[2], 10) || 0, value: c[4] || undefined, inline: false, v: c[4] !== undefined }
          if (!endCell()) return null
          i = QUICK_CELL.lastIndex
        }
        if (row.valued) rows.push(row.cells)
        row = null
        i += '</row>'.length
      }
      return i === to ? true : null
    }

    const plain = scan({
      open(name, attributes) {
        open.push(name)
        const depth = open.length
        if (depth === 1) return name === 'worksheet'
        // Merged cells repeat a value and hyperlinks change a cell's kind: exceljs's to read.
        if (name === 'mergeCells' || name === 'hyperlinks') return false
        if (depth === 2) return name !== 'sheetData' || sheetData++ === 0
        if (open[1] !== 'sheetData') return true
        if (depth === 3) {
          const number = /^[1-9]\d*$/.test(attributes.r ?? '') ? Number(attributes.r) : 0
          if (name !== 'row' || number <= lastRow) return false
          lastRow = number
          row = { number, cells: [], lastCol: 0, valued: false }
          return true
        }
        if (depth === 4) {
          const col = cellColumn(attributes.r, row!.number)
          if (name !== 'c' || col <= row!.lastCol) return false
          row!.lastCol = col
          cell = { col, type: attributes.t, style: attributes.s === undefined ? 0 : parseInt(attributes.s, 10) || 0, value: undefined, inline: false, v: false }
          return true
        }
        if (depth === 5) {
          // A formula (<f>) and anything else in a cell are exceljs's to read.
          if (name === 'v' && !cell!.v && !cell!.inline) cell!.v = collecting = true
          else if (name === 'is' && !cell!.v && !cell!.inline) cell!.inline = true
          else return false
          return true
        }
        if (depth === 6 && open[4] === 'is' && name === 't') {
          collecting = true
          return true
        }
        return false
      },
      close(name) {
        open.pop()
        collecting = false
        if (open[1] !== 'sheetData' || open.length < 2) return true
        if (name === 'c' && open.length === 3) return endCell()
        if (name === 'row' && open.length === 2) {
          if (row!.valued) rows.push(row!.cells)
          row = null
        }
        return true
      },
      text(text) {
        // Text runs join, as exceljs joins them; white space between elements is not a value.
        if (collecting) cell!.value = (cell!.value ?? '') + text
        return true
      },
    }, quickRows)
    return plain === null ? undefined : plain ? rows : null
  }
  // Rows in the form writers give them are read by quickRows; a sheet with any other, by scanXml from the start.
  const quick = sheetRows((handler, quickRows) => scanSheetXml(xml, handler, quickRows))
  return quick !== undefined ? quick : (sheetRows((handler) => scanXml(xml, handler)) ?? null)
}
