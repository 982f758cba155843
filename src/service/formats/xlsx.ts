import { constants, crc32, deflateRawSync } from 'node:zlib'
import { columnLetters, rowSpan, rowXml, SharedStrings, type SheetCell } from '../../shared/export/xlsx-sheet'
import { centralDirectory, dosStamp, localHeader, zipName, type ZipEntry } from '../../shared/export/zip-records'
import { HEADER_STYLE, SHEET_CLOSE, SHEET_FORMAT, SHEET_OPEN, SHEET_PART, STRINGS_PART, WORKBOOK_PARTS } from './xlsx-frame'
import type { Table } from './table'

/**
 * A page as a real workbook: one sheet `results`, its header bold, then the
 * page's rows, numbers as numbers, text as shared strings, booleans as such.
 *
 * exceljs's Workbook built a model of every cell and its style for this
 * (~10 ms a page of 100 rows, most of an XLSX export's time). Now the fixed
 * parts (xlsx-frame.ts) are compressed once, and the sheet and its shared
 * strings are written row by row as exceljs writes them
 * (src/shared/export/xlsx-sheet.ts, the writer of the app's export files
 * too), in an archive of the same records as the app's
 * (src/shared/export/zip-records.ts): the parts exceljs wrote, byte for
 * byte (test/service/xlsx.test.ts), in an archive without JSZip's
 * empty folder entries. The entries' times are pinned, so the same request
 * gives the same bytes.
 */

/** 2020-01-01 00:00, the time exceljs's pages had pinned on their entries. */
const STAMP = dosStamp(new Date(2020, 0, 1))

interface Deflated {
  name: Uint8Array
  crc: number
  size: number
  data: Buffer
}

/**
 * A page's own parts are compressed at zlib's fastest level: a fifth of the
 * time of its default (0.1 against 0.6 ms for a sheet of 100 rows, most of
 * a page's writing) for a sixth more bytes over a connection. The fixed
 * parts, compressed once, take the default.
 */
const PAGE_LEVEL = constants.Z_BEST_SPEED

function deflated(name: string, text: string, level: number = constants.Z_DEFAULT_COMPRESSION): Deflated {
  const bytes = Buffer.from(text, 'utf8')
  return { name: zipName(name), crc: crc32(bytes), size: bytes.length, data: deflateRawSync(bytes, { level }) }
}

/** The fixed parts compressed, the first time a page needs them. */
let fixedParts: ReadonlyMap<string, Deflated> | null = null
function fixed(): ReadonlyMap<string, Deflated> {
  fixedParts ??= new Map(WORKBOOK_PARTS.flatMap(([name, content]) => (content === null ? [] : [[name, deflated(name, content)] as const])))
  return fixedParts
}

/** The sheet part: its dimension (the cells the rows span, empty ones too), then the header and every row. */
function sheetXml(table: Table, strings: SharedStrings): string {
  let rows = rowXml(1, table.header, { strings, style: HEADER_STYLE, keepEmpty: true })
  // exceljs numbers every row it is given, one without cells too (which it leaves out, and out of the dimension).
  let top = 0
  let bottom = 0
  let left = 0
  let right = 0
  const span = (number: number, cells: readonly SheetCell[]) => {
    const { min, max } = rowSpan(cells)
    if (min === 0) return
    if (top === 0) top = number
    bottom = number
    if (left === 0 || min < left) left = min
    if (max > right) right = max
  }
  span(1, table.header)
  for (let i = 0; i < table.rows.length; i++) {
    const row = table.rows[i]!
    rows += rowXml(i + 2, row, { strings, keepEmpty: true })
    span(i + 2, row)
  }
  // A sheet without a cell: exceljs's empty range, A1:A1.
  const dimension = top === 0 ? 'A1:A1' : `${columnLetters(left)}${top}:${columnLetters(right)}${bottom}`
  return `${SHEET_OPEN}<dimension ref="${dimension}"/>${SHEET_FORMAT}${rows === '' ? '<sheetData/>' : `<sheetData>${rows}</sheetData>`}${SHEET_CLOSE}`
}

export function toXlsx(table: Table): Buffer {
  const strings = new SharedStrings()
  // The sheet first: its text is what fills the shared strings.
  const sheet = deflated(SHEET_PART, sheetXml(table, strings), PAGE_LEVEL)
  const own = new Map([
    [SHEET_PART, sheet],
    [STRINGS_PART, deflated(STRINGS_PART, strings.xml(), PAGE_LEVEL)],
  ])
  const pieces: Uint8Array[] = []
  const entries: ZipEntry[] = []
  let at = 0
  for (const [name] of WORKBOOK_PARTS) {
    const part = own.get(name) ?? fixed().get(name)!
    const entry: ZipEntry = { name: part.name, flags: 0, crc: part.crc, compressed: part.data.length, size: part.size, offset: at }
    const header = localHeader(entry, STAMP)
    pieces.push(header, part.data)
    entries.push(entry)
    at += header.length + part.data.length
  }
  pieces.push(centralDirectory(entries, STAMP, at))
  return Buffer.concat(pieces)
}
