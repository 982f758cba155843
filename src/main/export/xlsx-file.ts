import { PassThrough } from 'node:stream'
import { rowXml } from '../../shared/export/xlsx-sheet'
import type { OutputFile } from './output-file'
import type { Cell } from './table-spool'
import { excel } from './xlsx-page'
import { checkedZipEntries } from './zip-bounds'
import { ZipWriter } from './zip-writer'

/**
 * The export's workbook: one sheet `results`, its header bold, then every row.
 *
 * exceljs's streaming writer built a model of each row and looked up the
 * style of each of its cells before it wrote it (~50 µs a row, most of the
 * time writing took). Now exceljs writes the workbook's frame only: every
 * part (styles, theme, workbook, properties) and the sheet with its header
 * row. The data rows, nearly all of the file, are written here in the very
 * form exceljs's streaming writer gives an unstyled row (rowXml, text in
 * its cells: src/shared/export/xlsx-sheet.ts), into the sheet
 * where exceljs ended its rows, deflated as they come. The file's parts are
 * the ones exceljs wrote before, byte for byte (test/main/xlsx-file.test.ts
 * compares them).
 */

const SHEET_PART = 'xl/worksheets/sheet1.xml'
const END_OF_ROWS = '</sheetData>'
/** The frame is a few parts of a few kilobytes; this only bounds the reading of what exceljs wrote. */
const MAX_FRAME = 16 * 1024 * 1024

/** Writes the workbook into `out` and completes the file. */
export async function writeWorkbook(out: OutputFile, header: readonly string[], pages: AsyncIterable<readonly Cell[][]>): Promise<void> {
  const frame = await workbookFrame(header)
  const zip = new ZipWriter(out)
  for (const [name, content] of frame.parts) if (name !== SHEET_PART) await zip.add(name, content)
  const sheet = await zip.stream(SHEET_PART)
  await sheet.write(frame.sheetHead)
  // Row 1 is the header; exceljs numbers every row it is given, an empty one too (which it leaves out).
  let number = 2
  for await (const rows of pages) {
    let xml = ''
    for (const row of rows) xml += rowXml(number++, row)
    await sheet.write(xml)
  }
  await sheet.write(frame.sheetTail)
  await sheet.end()
  await zip.finish()
}

/** The parts exceljs's streaming writer gives a workbook of the header alone, and its sheet split where the rows go. */
async function workbookFrame(header: readonly string[]): Promise<{ parts: Map<string, Buffer>; sheetHead: string; sheetTail: string }> {
  const ExcelJS = await excel()
  const stream = new PassThrough()
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  // The options the export's workbooks were written with: styles (for the bold header), strings in their cells.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false })
  const sheet = workbook.addWorksheet('results')
  const first = sheet.addRow([...header])
  first.font = { bold: true }
  first.commit()
  sheet.commit()
  await workbook.commit()
  const parts = checkedZipEntries(Buffer.concat(chunks), MAX_FRAME)
  if (typeof parts === 'string') throw new Error(`The workbook's frame cannot be read back: ${parts}`)
  const sheetXml = parts.get(SHEET_PART)?.toString('utf8') ?? ''
  // A cell's text never holds '<' unescaped, so the first end of the rows is the sheet's.
  const split = sheetXml.indexOf(END_OF_ROWS)
  if (split < 0) throw new Error("The workbook's frame has no sheet data.")
  return { parts, sheetHead: sheetXml.slice(0, split), sheetTail: sheetXml.slice(split) }
}
