import type { Table } from './table'

/**
 * A real workbook (exceljs), one sheet `results`. Workbook dates and the zip
 * entries' timestamps are pinned so the same request gives the same bytes.
 */

const PINNED_DATE = new Date(Date.UTC(2020, 0, 1))
// 2020-01-01 00:00:00 in MS-DOS form, as zip headers store it.
const DOS_TIME = 0
const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1

/** Overwrites every entry's modification time in a zip's local and central headers. */
export function pinZipTimestamps(zip: Buffer): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0) return zip
  const entries = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  for (let i = 0; i < entries && zip.readUInt32LE(at) === 0x02014b50; i++) {
    zip.writeUInt16LE(DOS_TIME, at + 12)
    zip.writeUInt16LE(DOS_DATE, at + 14)
    const local = zip.readUInt32LE(at + 42)
    if (zip.readUInt32LE(local) === 0x04034b50) {
      zip.writeUInt16LE(DOS_TIME, local + 10)
      zip.writeUInt16LE(DOS_DATE, local + 12)
    }
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return zip
}

export async function toXlsx(table: Table): Promise<Buffer> {
  // Loaded on the first xlsx page, not with the service: most runs never ask for one, and exceljs is large.
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  workbook.creator = 'Query Explorer demo service'
  workbook.created = PINNED_DATE
  workbook.modified = PINNED_DATE
  const sheet = workbook.addWorksheet('results')
  sheet.addRow(table.header)
  for (const row of table.rows) sheet.addRow(row)
  sheet.getRow(1).font = { bold: true }
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer())
  return pinZipTimestamps(buffer)
}
