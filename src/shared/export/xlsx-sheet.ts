/**
 * A worksheet's rows, and the shared strings they may point into, written in
 * the very form exceljs writes them: the export's file (in the form of
 * exceljs's streaming writer, text in its cells) and the demo service's pages
 * (in the form of exceljs's Workbook, text as shared strings) are both
 * written here, row by row, without exceljs's model of every cell.
 * test/main/xlsx-file.test.ts and test/service/xlsx.test.ts hold each
 * to exceljs, byte for byte.
 */

/** A cell's value; undefined is no cell at all (exceljs makes none), null an empty one. */
export type SheetCell = string | number | boolean | null | undefined

/** A1-style column letters by column number, kept as they are made: rows repeat the same few. */
const letters: string[] = ['']
export function columnLetters(col: number): string {
  for (let n = letters.length; n <= col; n++) {
    let name = ''
    for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name
    letters.push(name)
  }
  return letters[col]!
}

/** The characters exceljs's xmlEncode changes: the five XML ones, DEL and the C0 controls but TAB, LF and CR. */
const TO_ENCODE = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/
const TO_ENCODE_ALL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/g
const ENTITIES: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&apos;', '<': '&lt;', '>': '&gt;' }

/** Text as exceljs's xmlEncode writes it: the five as entities, the controls (which XML cannot hold) dropped. */
export function xmlEncode(text: string): string {
  return TO_ENCODE.test(text) ? text.replace(TO_ENCODE_ALL, (char) => ENTITIES[char] ?? '') : text
}

/**
 * The shared strings of a workbook as exceljs's Workbook keeps them: each
 * text once, numbered in the order first met (header first, then row by
 * row), every use counted.
 */
export class SharedStrings {
  private readonly indexes = new Map<string, number>()
  private readonly texts: string[] = []
  private uses = 0

  /** The number of `text`, given it now if it has none. */
  add(text: string): number {
    this.uses++
    let index = this.indexes.get(text)
    if (index === undefined) {
      index = this.texts.length
      this.indexes.set(text, index)
      this.texts.push(text)
    }
    return index
  }

  /** The part xl/sharedStrings.xml; a text starting or ending in white space, or holding a line end, is marked to keep it. */
  xml(): string {
    let xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${this.uses}" uniqueCount="${this.texts.length}">`
    for (const text of this.texts) xml += /^\s|\n|\s$/.test(text) ? `<si><t xml:space="preserve">${xmlEncode(text)}</t></si>` : `<si><t>${xmlEncode(text)}</t></si>`
    return `${xml}</sst>`
  }
}

/** How a row is written: where its text goes, its style, and whether a row of empty cells is written. */
export interface RowForm {
  /** Text as numbers into these (exceljs's Workbook); without them, text in its cell (`t="str"`, exceljs's streaming writer). */
  strings?: SharedStrings
  /** A style (its index in the workbook's cellXfs) for the row and each of its cells: the bold header. */
  style?: number
  /** exceljs's Workbook writes a row whose cells are all empty (`<row …/>`); its streaming writer leaves it out. */
  keepEmpty?: boolean
}

/** Where a row's cells run, empty ones too (exceljs's `spans`); 0 and 0 when it has none. */
export function rowSpan(cells: readonly SheetCell[]): { min: number; max: number } {
  let min = 0
  let max = 0
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] === undefined) continue
    if (min === 0) min = i + 1
    max = i + 1
  }
  return { min, max }
}

/**
 * One row as exceljs writes it: its span over the cells given (empty ones
 * too), then each cell with a value: a number as it prints, true/false as
 * 1/0 (`t="b"`), text in the cell or as a shared string's number; an empty
 * cell only when it has a style. A row with no cell at all is never written.
 */
export function rowXml(number: number, cells: readonly SheetCell[], form: RowForm = {}): string {
  const { strings, style, keepEmpty = false } = form
  const cellStyle = style ? ` s="${style}"` : ''
  let xml = ''
  for (let i = 0; i < cells.length; i++) {
    const value = cells[i]
    if (value === undefined || (value === null && !style)) continue
    const ref = columnLetters(i + 1) + number
    if (value === null) xml += `<c r="${ref}"${cellStyle}/>`
    else if (typeof value === 'number') xml += `<c r="${ref}"${cellStyle}><v>${value}</v></c>`
    else if (typeof value === 'boolean') xml += `<c r="${ref}"${cellStyle} t="b"><v>${value ? 1 : 0}</v></c>`
    else if (strings) xml += `<c r="${ref}"${cellStyle} t="s"><v>${strings.add(value)}</v></c>`
    else xml += `<c r="${ref}"${cellStyle} t="str"><v>${xmlEncode(value)}</v></c>`
  }
  const { min, max } = rowSpan(cells)
  if (xml === '' && !(keepEmpty && min > 0)) return ''
  const rowStyle = style ? ` s="${style}" customFormat="1"` : ''
  const open = `<row r="${number}" spans="${min}:${max}"${rowStyle} x14ac:dyDescent="0.25"`
  return xml === '' ? `${open}/>` : `${open}>${xml}</row>`
}
