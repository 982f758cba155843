import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CsvWriter, XlsxWriter } from '../../src/main/export/table-writers'
import { excelJsRows } from '../../src/main/export/xlsx-page'
import { toXlsx } from '../../src/service/formats/xlsx'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * CSV and XLSX exports: each page's rows kept (at most the rows asked) until
 * the last, then one file with one header, the union of the pages' columns,
 * every row under it. The xlsx pages are the demo service's own.
 */

describe('table writers', () => {
  const tempDir = useTempDirs('qe-table-writers')

  /** Where one export writes: its file and its spool, in a folder of its own. */
  const paths = () => {
    const dir = tempDir()
    return { file: join(dir, 'file'), spool: join(dir, 'spool') }
  }
  const never = new AbortController().signal

  it('csv: pages of different columns make one header of their union, each cell under its name, UTF-8 with a byte order mark', async () => {
    const where = paths()
    const writer = await CsvWriter.open(where, null)
    expect(await writer.addPage(Buffer.from('rank,1.id,1.name\r\n1,a,"São, Paulo"\r\n'), 100)).toBe(1)
    // The second page adds 1.population and has no 1.name; of its 3 rows 2 are asked.
    expect(await writer.addPage(Buffer.from('rank,1.id,1.population\n2,b,10\n3,c,20\n4,d,30\n'), 2)).toBe(2)
    expect(existsSync(where.file)).toBe(false)
    await writer.finish(never)
    expect(readFileSync(where.file, 'utf8')).toBe('\uFEFFrank,id,name,population\r\n1,a,"São, Paulo",\r\n2,b,,10\r\n3,c,,20\r\n')
    expect(writer.bytes).toBe(readFileSync(where.file).length)
  })

  it('csv: a page with a quoted field that never closes fails naming the format and the line', async () => {
    const writer = await CsvWriter.open(paths(), null)
    await expect(writer.addPage(Buffer.from('rank,1.name\r\n1,"open\r\n'), 10)).rejects.toMatchObject({
      code: 'bad_response',
      message: "The service's csv answer cannot be read: A quoted field that starts on line 2 never closes.",
    })
    await writer.abandon()
  })

  it("xlsx: the service's pages rewritten as one workbook of values, numbers kept numbers, the grid's columns", async () => {
    const where = paths()
    const writer = await XlsxWriter.open(where, ['rank', '1.name', '1.population'])
    await writer.addPage(await toXlsx({ header: ['rank', 'probability', '1.id', '1.name'], rows: [[1, 0.5, 'a', 'Ann'], [2, 0.25, 'b', 'Bo']] }), 100)
    expect(await writer.addPage(await toXlsx({ header: ['rank', 'probability', '1.id', '1.population'], rows: [[3, 0.125, 'c', 1_000], [4, 0.1, 'd', 2]] }), 1)).toBe(1)
    await writer.finish(never)
    expect(await excelJsRows(readFileSync(where.file))).toEqual([
      ['rank', 'name', 'population'],
      // A row's empty cells at its end are not written (as exceljs wrote them): the row reads shorter.
      [1, 'Ann'],
      [2, 'Bo'],
      [3, null, 1_000],
    ])
    expect(writer.bytes).toBe(readFileSync(where.file).length)
  })

  it('xlsx: a page that is not a workbook fails with the reason, before anything is written', async () => {
    const where = paths()
    const writer = await XlsxWriter.open(where, null)
    await expect(writer.addPage(Buffer.from('rank,probability\r\n'), 10)).rejects.toMatchObject({ code: 'bad_response', message: expect.stringContaining('not a zip archive') })
    await writer.abandon()
    expect(existsSync(where.file)).toBe(false)
  })
})
