import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkedZipEntries } from '../../src/main/export/zip-bounds'
import { Ref, type DataObject } from '../../src/service/dataset/model'
import { tableOf, type Table, type TableCell } from '../../src/service/formats/table'
import { toXlsx } from '../../src/service/formats/xlsx'
import type { Page } from '../../src/service/query/render'
import { SOFFICE, sheetInLibreOffice } from '../fixtures/libreoffice'

/**
 * The demo service's xlsx pages, written without exceljs's model of every
 * cell, held to what exceljs's Workbook wrote for them before: the same
 * parts, byte for byte, for every kind of cell and row; and a page of every
 * kind of cell the service's tables hold opens, in exceljs and in
 * LibreOffice, to those very values (numbers as numbers).
 */

const MiB = 1024 * 1024

/** The page as the service wrote it with exceljs's Workbook: the reference the new writer is held to. */
async function excelJsPage(table: Table): Promise<Buffer> {
  const pinned = new Date(Date.UTC(2020, 0, 1))
  const workbook = new ExcelJS.Workbook()
  workbook.creator = 'Query Explorer demo service'
  workbook.created = pinned
  workbook.modified = pinned
  const sheet = workbook.addWorksheet('results')
  sheet.addRow(table.header)
  for (const row of table.rows) sheet.addRow(row)
  sheet.getRow(1).font = { bold: true }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/** The archive's files in order, as text; the folder entries JSZip adds (empty, read by no one) left out. */
function partsOf(zip: Buffer): [string, string][] {
  const files = checkedZipEntries(zip, 64 * MiB)
  if (typeof files === 'string') throw new Error(files)
  return [...files].filter(([name]) => !name.endsWith('/')).map(([name, content]) => [name, content.toString('utf8')])
}

/** Text that tests a writer: the XML five, controls, line ends, an escape exceljs decodes, white space kept, other scripts, a surrogate pair. */
const AWKWARD = ['A & <b> "q" \'s\'', 'line\r\nbreak\rand\nmore', 'tab\there', 'bell\u0007del\u007f', '_x000D_ literal', '  spaced  ', '\u00a0nbsp', '', 'São Paulo', '東京', '🙂 emoji', '=1+1', '0042', 'city|capital', 'x'.repeat(3_000)]

/** A table of `rows` rows over every kind of cell and row, the same for the same seed. */
function randomTable(seed: number, rows: number): Table {
  let state = seed
  const next = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
  const pick = <T,>(values: readonly T[]) => values[Math.floor(next() * values.length)]!
  const header = ['rank', 'probability', '1.id', '1.class', '1.name', '1.population', '1.capital', '1.note', AWKWARD[0]!]
  const cell = (column: number): TableCell => {
    if (column === 0) return Math.floor(next() * 10_000)
    if (next() < 0.15) return null
    switch (column % 4) {
      case 1:
        return pick([0.5, -3.25, 1e-7, 123_456_789_012, 0, -0, 2 ** 53, 0.1 + 0.2, 1e21])
      case 2:
        return pick([true, false])
      default:
        return pick(AWKWARD)
    }
  }
  const body = Array.from({ length: rows }, (_, i): TableCell[] => {
    // Rows all empty, without cells, shorter and longer than the header, one starting empty: exceljs numbers them all.
    if (i % 17 === 5) return header.map(() => null)
    if (i % 19 === 6) return []
    const width = i % 13 === 3 ? 3 : i % 11 === 7 ? header.length + 2 : header.length
    const row = Array.from({ length: width }, (_, column) => cell(column))
    if (i % 23 === 9) row[0] = null
    return row
  })
  return { header, rows: body }
}

/** A page of the service through its own table: objects with every kind of attribute, a class list, a simple column. */
function everyKindOfCell(): Table {
  const country: DataObject = { id: 'CH', class: ['country'], attributes: { name: 'Schweiz' } }
  const zurich: DataObject = {
    id: 'c1',
    class: ['city', 'capital'],
    attributes: { name: 'Zürich & <Co> "q" \'s\'', population: 415_367, latitude: 47.36667, capital: true, note: null, altName: '東京 🙂 São', country: new Ref(country) },
  }
  const small: DataObject = { id: '0042', class: ['village'], attributes: { name: '  spaced  ', population: -3.25, capital: false, elevation: 1e-7 } }
  const items = [
    { p: 0.5, tuple: [zurich, '=1+1'] },
    { p: 0.25, tuple: [small] },
    { p: 0.125, tuple: [zurich, 'a,b;c'] },
  ]
  const page: Page = { offset: 40, count: 3, items }
  return tableOf(page, 1)
}

/** Every cell of the sheet `results` by row and column, an empty one null. */
function cellsOf(workbook: ExcelJS.Workbook): TableCell[][] {
  const sheet = workbook.getWorksheet('results')!
  return Array.from({ length: sheet.rowCount }, (_, r) => Array.from({ length: sheet.columnCount }, (_, c) => (sheet.getRow(r + 1).getCell(c + 1).value ?? null) as TableCell))
}

describe("the demo service's xlsx pages", () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-service-xlsx-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("holds the parts exceljs's Workbook wrote, byte for byte, for every kind of cell and row", async () => {
    const tables: [string, Table][] = [
      ['every kind of cell', everyKindOfCell()],
      ['a header alone', { header: ['rank', 'probability'], rows: [] }],
      ['awkward header names', { header: AWKWARD, rows: [[1, 0.5]] }],
      // A table's header is text; an empty header cell, written all the same (bold and empty), is exceljs's rule too.
      ['an empty header cell', { header: [null, 'a'] as unknown as string[], rows: [[null, null, 2]] }],
      ...[1, 2, 3].map((seed): [string, Table] => [`seed ${seed}`, randomTable(seed, seed === 3 ? 100 : 40)]),
    ]
    for (const [what, table] of tables) expect(partsOf(toXlsx(table)), what).toEqual(partsOf(await excelJsPage(table)))
    // A table without a cell (never a page: its header names rank and probability) has the sheet exceljs writes; exceljs leaves the shared strings out then.
    const sheet = (zip: Buffer) => partsOf(zip).find(([name]) => name === 'xl/worksheets/sheet1.xml')
    const empty: Table = { header: [], rows: [[], []] }
    expect(sheet(toXlsx(empty))).toEqual(sheet(await excelJsPage(empty)))
  })

  it('gives the same bytes for the same page', () => {
    const table = randomTable(4, 50)
    expect(toXlsx(table).equals(toXlsx(randomTable(4, 50)))).toBe(true)
  })

  it('opens in exceljs to the very values of the page: text with XML specials and other scripts, numbers as numbers, empty cells, class lists', async () => {
    const table = everyKindOfCell()
    expect(table.header).toEqual(['rank', 'probability', '1.id', '1.class', '1.name', '1.population', '1.latitude', '1.capital', '1.note', '1.altName', '1.country', '1.elevation', '2'])
    expect(table.rows[0]).toEqual([41, 0.5, 'c1', 'city|capital', 'Zürich & <Co> "q" \'s\'', 415_367, 47.36667, true, null, '東京 🙂 São', 'CH', null, '=1+1'])
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(toXlsx(table) as unknown as ArrayBuffer)
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['results'])
    expect(cellsOf(workbook)).toEqual([table.header, ...table.rows])
    expect(workbook.getWorksheet('results')!.getRow(1).font?.bold).toBe(true)
  })

  if (!SOFFICE && process.env.CI) throw new Error('CI needs LibreOffice (scripts/setup.sh installs libreoffice-calc-nogui) to open a page as a spreadsheet does')

  it.skipIf(!SOFFICE)('opens in LibreOffice to the same cells', async () => {
    const table = everyKindOfCell()
    const path = join(dir, 'page.xlsx')
    writeFileSync(path, toXlsx(table))
    const [head, ...rows] = await sheetInLibreOffice(path, dir)
    expect(head).toEqual(table.header)
    // Numbers as LibreOffice prints them in full ("Save cell content as shown" off): the same number.
    const shown = (value: TableCell, read: string) => (typeof value === 'number' ? Number(read) : read)
    const expected = (value: TableCell) => (value === null ? '' : typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : value)
    expect(rows.map((row, r) => row.map((read, c) => shown(table.rows[r]![c]!, read)))).toEqual(table.rows.map((row) => row.map(expected)))
  })
})
