import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import type { Cell } from '../../src/main/export/table-spool'
import { checkedZipEntries } from '../../src/main/export/zip-bounds'
import { sheetInLibreOffice, SOFFICE } from '../fixtures/libreoffice'
import { useTempDirs } from '../fixtures/temp-dirs'
import { AWKWARD, table, writtenWorkbook } from '../fixtures/xlsx-tables'

/**
 * The export's workbook, written without exceljs's cell models: each file
 * holds the parts exceljs's streaming writer wrote, byte for byte, and
 * LibreOffice opens it to the same cells. (Reading pages back:
 * test/main/xlsx-page.test.ts.)
 */

const MiB = 1024 * 1024

/** The workbook as the export wrote it with exceljs's streaming writer before: the reference the new writer is held to. */
async function excelJsWorkbook(header: string[], rows: Cell[][]): Promise<Buffer> {
  const stream = new PassThrough()
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false })
  const sheet = workbook.addWorksheet('results')
  const first = sheet.addRow(header)
  first.font = { bold: true }
  first.commit()
  for (const row of rows) sheet.addRow(row).commit()
  sheet.commit()
  await workbook.commit()
  return Buffer.concat(chunks)
}

/** The parts of an archive by name, as text; the time stamps of docProps/core.xml (when it was written) left out. */
function partsOf(zip: Buffer): Record<string, string> {
  const files = checkedZipEntries(zip, 256 * MiB)
  if (typeof files === 'string') throw new Error(files)
  return Object.fromEntries(
    [...files].map(([name, content]) => [name, name === 'docProps/core.xml' ? content.toString('utf8').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'WHEN') : content.toString('utf8')]),
  )
}

describe('the xlsx file an export writes', () => {
  const tempDir = useTempDirs('qe-xlsx-file')

  /** The workbook writeWorkbook writes for `header` and `rows`. */
  const written = (header: string[], rows: Cell[][]) => writtenWorkbook(join(tempDir(), 'written.xlsx'), header, rows)

  it('writes the parts exceljs wrote, byte for byte, for every kind of cell and row', async () => {
    for (const [seed, rows] of [
      [1, 0],
      [2, 1],
      [3, 250],
      [4, 1_000],
    ] as const) {
      const { header, rows: body } = table(seed, rows)
      expect(partsOf(await written(header, body)), `seed ${seed}`).toEqual(partsOf(await excelJsWorkbook(header, body)))
    }
    // A header with awkward names and no rows; and no columns at all.
    expect(partsOf(await written(AWKWARD, []))).toEqual(partsOf(await excelJsWorkbook(AWKWARD, [])))
    expect(partsOf(await written([], [[1, 'a']]))).toEqual(partsOf(await excelJsWorkbook([], [[1, 'a']])))
  })

  it.skipIf(!SOFFICE)('LibreOffice opens a written workbook to the same cells', async () => {
    const header = ['rank', 'probability', 'name', 'capital', 'note']
    // Probabilities of three decimals: LibreOffice prints 15 significant digits, these in full.
    const rows: Cell[][] = Array.from({ length: 300 }, (_, i) => [i + 1, Math.round(1_000 / (i + 2)) / 1_000, `Town, "${i}" & <co>`, i % 2 === 0, i % 7 === 0 ? null : `n${i}`])
    const dir = tempDir()
    const path = join(dir, 'opened.xlsx')
    writeFileSync(path, await written(header, rows))
    const [head, ...cells] = await sheetInLibreOffice(path, dir)
    expect(head).toEqual(header)
    expect(cells).toHaveLength(300)
    const shown = (value: Cell) => (value === null ? '' : typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value))
    // Numbers as LibreOffice prints them in full ("Save cell content as shown" off): the same number.
    expect(cells.map((row) => [Number(row[0]), Number(row[1]), ...row.slice(2)])).toEqual(rows.map((row) => [row[0], row[1], ...row.slice(2).map(shown)]))
  })
})
