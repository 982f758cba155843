import { deflateRawSync } from 'node:zlib'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { checkedZipEntries, zipBoundsProblem } from '../../src/main/export/zip-bounds'
import { directoryEntry, localHeader } from '../fixtures/zip'

/**
 * An xlsx page is checked before it is unpacked: a zip bomb, a lying size, a
 * table of contents that does not add up are refused with the reason; a
 * real workbook's entries come back inflated, by name.
 */

/** A zip of one deflated entry, declaring `declared` as its unpacked size. */
function zipOf(content: Buffer, declared = content.length): Buffer {
  const data = deflateRawSync(content)
  const file = { name: Buffer.from('xl/worksheets/sheet1.xml'), compressed: data.length, size: declared }
  const entry = directoryEntry(file, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(entry.length + file.name.length, 12)
  end.writeUInt32LE(30 + file.name.length + data.length, 16)
  return Buffer.concat([localHeader(file), file.name, data, entry, file.name, end])
}

/** The end-of-directory record: `declared` entries, a directory of `size` bytes at `at`. */
function endRecord(declared: number, size: number, at: number): Buffer {
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(declared, 8)
  end.writeUInt16LE(declared, 10)
  end.writeUInt32LE(size, 12)
  end.writeUInt32LE(at, 16)
  return end
}

describe('an xlsx page is checked before it is unpacked', () => {
  it('accepts a real workbook and a small archive', async () => {
    const workbook = new ExcelJS.Workbook()
    workbook.addWorksheet('results').addRow(['rank', 'probability'])
    expect(zipBoundsProblem(Buffer.from(await workbook.xlsx.writeBuffer()), 8 * 1024 * 1024)).toBeNull()
    expect(zipBoundsProblem(zipOf(Buffer.from('<sheet/>')), 1024)).toBeNull()
  })

  it('refuses a zip bomb, honest or lying about its size, and what is not a zip', () => {
    const zeros = Buffer.alloc(20 * 1024 * 1024)
    expect(zipBoundsProblem(zipOf(zeros), 8 * 1024 * 1024)).toMatch(/more than 8 MiB/)
    expect(zipBoundsProblem(zipOf(zeros, 1_000), 8 * 1024 * 1024)).toMatch(/more than its stated size/)
    expect(zipBoundsProblem(Buffer.from('rank,probability\r\n'), 1024)).toMatch(/not a zip/)
  })

  it('gives the entries by name, inflated, a leading slash left out', () => {
    const zip = zipOf(Buffer.from('<sheet>é</sheet>'))
    const files = checkedZipEntries(zip, 1024)
    expect(files).toBeInstanceOf(Map)
    expect([...(files as Map<string, Buffer>)].map(([name, content]) => [name, content.toString('utf8')])).toEqual([['xl/worksheets/sheet1.xml', '<sheet>é</sheet>']])
  })

  it('refuses an end record whose count differs from the entries listed, too many entries, and an encrypted entry', () => {
    const data = deflateRawSync(Buffer.from('x'))
    const file = { name: Buffer.from('a.xml'), compressed: data.length, size: 1 }
    const local = Buffer.concat([localHeader(file), file.name, data])
    const entry = Buffer.concat([directoryEntry(file, 0), file.name])
    // One entry listed, two counted.
    expect(zipBoundsProblem(Buffer.concat([local, entry, endRecord(2, entry.length, local.length)]), 1024)).toBe('its table of contents lists 1 files where its end record counts 2')
    // Two entries (the same file twice) against a bound of one.
    expect(zipBoundsProblem(Buffer.concat([local, entry, entry, endRecord(2, 2 * entry.length, local.length)]), 1024, 1)).toBe('it holds more than 1 files')
    const encrypted = Buffer.from(entry)
    encrypted.writeUInt16LE(1, 8)
    expect(zipBoundsProblem(Buffer.concat([local, encrypted, endRecord(1, entry.length, local.length)]), 1024)).toBe('a file in it is encrypted')
    // The directory not where the end record says.
    expect(zipBoundsProblem(Buffer.concat([local, entry, endRecord(1, entry.length, local.length + 1)]), 1024)).toBe('its table of contents is not where its end record says')
  })
})
