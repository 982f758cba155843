import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OutputFile } from '../../src/main/export/output-file'
import { checkedZipEntries } from '../../src/main/export/zip-bounds'
import { ZipWriter } from '../../src/main/export/zip-writer'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * The zip archive an export writes, front to back: read back by Info-ZIP's
 * unzip (an independent reader that checks every checksum) and by the
 * export's own bounded reader, to the files written whole and piece by piece.
 */

describe('zip writer', () => {
  const tempDir = useTempDirs('qe-zip-writer')

  it('writes files whole and piece by piece that unzip tests and extracts to the same bytes, names and time', async () => {
    const path = join(tempDir(), 'archive.zip')
    const zip = new ZipWriter(await OutputFile.create(path), new Date(2024, 2, 5, 13, 45, 30))
    await zip.add('[Content_Types].xml', Buffer.from('<Types/>'))
    const sheet = await zip.stream('xl/worksheets/sheet1.xml')
    const pieces = ['<sheetData>', '', 'São Paulo ', '東京 🙂 '.repeat(20_000), '</sheetData>']
    for (const piece of pieces) await sheet.write(piece)
    await sheet.end()
    await zip.add('docs/é.txt', Buffer.alloc(0))
    await zip.finish()

    // unzip -t checks every file's CRC-32 and sizes against the data.
    expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toMatch(/No errors detected/)
    expect(execFileSync('unzip', ['-p', path, 'xl/worksheets/sheet1.xml'], { encoding: 'utf8' })).toBe(pieces.join(''))
    const listing = execFileSync('zipinfo', ['-T', path], { encoding: 'utf8' })
    expect(listing).toMatch(/20240305\.134530 \[Content_Types\]\.xml/)
    expect(listing).toMatch(/3 files/)

    const entries = checkedZipEntries(readFileSync(path), 16 * 1024 * 1024)
    expect(entries).toBeInstanceOf(Map)
    const read = entries as Map<string, Buffer>
    expect([...read.keys()]).toEqual(['[Content_Types].xml', 'xl/worksheets/sheet1.xml', 'docs/é.txt'].map((name) => Buffer.from(name, 'utf8').toString('latin1')))
    expect(read.get('[Content_Types].xml')!.toString('utf8')).toBe('<Types/>')
  })

  it('an archive with no files is an empty archive unzip reads', async () => {
    const path = join(tempDir(), 'archive.zip')
    const zip = new ZipWriter(await OutputFile.create(path))
    await zip.finish()
    // The end record alone: 22 bytes.
    expect(readFileSync(path)).toHaveLength(22)
    expect(checkedZipEntries(readFileSync(path), 1024)).toEqual(new Map())
  })
})
