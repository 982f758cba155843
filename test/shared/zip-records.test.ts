import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateRawSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIZES_AFTER, centralDirectory, dataDescriptor, dosStamp, localHeader, zipName, type ZipEntry } from '../../src/shared/export/zip-records'

/**
 * The zip records (APPNOTE 4.3) the export's writer and the demo service put
 * around deflated data: the MS-DOS time, each header's fields where the note
 * puts them, and an archive assembled from them alone that Info-ZIP's unzip
 * (an independent reader checking every checksum) reads back.
 */

describe('zip records', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-zip-records-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('a time in MS-DOS form: seconds halved, years from 1980, a year before 1980 as 1980', () => {
    // 13:45:31 → 13<<11 | 45<<5 | 31>>1 = 26624 + 1440 + 15; 2024-03-15 → 44<<9 | 3<<5 | 15 = 22528 + 96 + 15.
    expect(dosStamp(new Date(2024, 2, 15, 13, 45, 31))).toEqual({ time: 28079, date: 22639 })
    expect(dosStamp(new Date(1975, 0, 1, 0, 0, 0))).toEqual({ time: 0, date: 33 })
  })

  it('a name is its UTF-8 bytes', () => {
    expect([...zipName('dé/x')]).toEqual([0x64, 0xc3, 0xa9, 0x2f, 0x78])
  })

  it('the local header and data descriptor hold each field where the note puts it, little-endian', () => {
    const entry: ZipEntry = { name: zipName('a'), flags: SIZES_AFTER, crc: 0x11223344, compressed: 5, size: 7, offset: 0 }
    const header = Buffer.from(localHeader(entry, { time: 0x1234, date: 0x5678 }))
    expect(header).toHaveLength(31)
    expect(header.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004')
    expect([header.readUInt16LE(4), header.readUInt16LE(6), header.readUInt16LE(8), header.readUInt16LE(10), header.readUInt16LE(12)]).toEqual([20, 8, 8, 0x1234, 0x5678])
    expect([header.readUInt32LE(14), header.readUInt32LE(18), header.readUInt32LE(22), header.readUInt16LE(26), header.readUInt16LE(28)]).toEqual([0x11223344, 5, 7, 1, 0])
    expect(header.subarray(30).toString()).toBe('a')
    expect(Buffer.from(dataDescriptor(entry)).toString('hex')).toBe('504b0708' + '44332211' + '05000000' + '07000000')
  })

  it("a name beyond ASCII is marked UTF-8 (flag bit 11) in both of its headers, so a reader that honours it reads the name as written; an ASCII name's flags are the caller's", () => {
    const named = (name: string): ZipEntry => ({ name: zipName(name), flags: SIZES_AFTER, crc: 0, compressed: 0, size: 0, offset: 0 })
    const stamp = { time: 0, date: 33 }
    expect(Buffer.from(localHeader(named('São.txt'), stamp)).readUInt16LE(6)).toBe(SIZES_AFTER | 0x0800)
    expect(Buffer.from(localHeader(named('sheet1.xml'), stamp)).readUInt16LE(6)).toBe(SIZES_AFTER)
    const directory = Buffer.from(centralDirectory([named('São.txt'), named('a.txt')], stamp, 0))
    // Each directory entry is 46 bytes and its name; the flags sit at 8.
    expect([directory.readUInt16LE(8), directory.readUInt16LE(46 + 8 + 8)]).toEqual([SIZES_AFTER | 0x0800, SIZES_AFTER])
    // Python's zipfile, a reader that honours the flag, lists the name as written (without it: "SÃ£o.txt", code page 437).
    const data = Buffer.from('olá')
    const deflated = deflateRawSync(data)
    const entry: ZipEntry = { name: zipName('São.txt'), flags: 0, crc: crc32(data), compressed: deflated.length, size: data.length, offset: 0 }
    const header = localHeader(entry, stamp)
    const path = join(dir, 'named.zip')
    writeFileSync(path, Buffer.concat([header, deflated, centralDirectory([entry], stamp, header.length + deflated.length)]))
    const read = 'import json, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(json.dumps([z.namelist(), z.read(z.namelist()[0]).decode()]))'
    expect(JSON.parse(execFileSync('python3', ['-c', read, path], { encoding: 'utf8' }))).toEqual([['São.txt'], 'olá'])
  })

  it('an empty archive is its end record alone: 22 bytes', () => {
    const end = Buffer.from(centralDirectory([], { time: 0, date: 33 }, 0))
    expect(end.toString('hex')).toBe('504b0506' + '00'.repeat(18))
  })

  it('an archive made of these records alone, one file with sizes ahead and one with a data descriptor, passes unzip -t and extracts', () => {
    const stamp = dosStamp(new Date(2024, 2, 5, 13, 45, 30))
    const files = [
      { name: 'a.txt', data: Buffer.from('hello hello hello'), flags: 0 },
      { name: 'docs/b.txt', data: Buffer.from('São Paulo 🙂 '.repeat(50)), flags: SIZES_AFTER },
    ]
    const parts: Uint8Array[] = []
    const entries: ZipEntry[] = []
    let at = 0
    for (const file of files) {
      const deflated = deflateRawSync(file.data)
      const known = { crc: crc32(file.data), compressed: deflated.length, size: file.data.length }
      const entry: ZipEntry = { name: zipName(file.name), flags: file.flags, offset: at, ...known }
      // With SIZES_AFTER the header carries zeros and the descriptor after the data the real numbers.
      const header = localHeader(file.flags & SIZES_AFTER ? { ...entry, crc: 0, compressed: 0, size: 0 } : entry, stamp)
      const tail = file.flags & SIZES_AFTER ? [dataDescriptor(entry)] : []
      for (const part of [header, deflated, ...tail]) {
        parts.push(part)
        at += part.length
      }
      entries.push(entry)
    }
    parts.push(centralDirectory(entries, stamp, at))
    const path = join(dir, 'records.zip')
    writeFileSync(path, Buffer.concat(parts))

    expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toMatch(/No errors detected/)
    expect(execFileSync('unzip', ['-p', path, 'a.txt'], { encoding: 'utf8' })).toBe('hello hello hello')
    expect(execFileSync('unzip', ['-p', path, 'docs/b.txt'], { encoding: 'utf8' })).toBe(files[1]!.data.toString())
    const listing = execFileSync('zipinfo', ['-T', path], { encoding: 'utf8' })
    expect(listing).toMatch(/20240305\.134530 a\.txt/)
    expect(listing).toMatch(/2 files/)
  })
})
