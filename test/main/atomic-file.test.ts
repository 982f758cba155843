import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../src/main/storage/atomic-file'
import { useTempDirs } from '../fixtures/temp-dirs'

/** Writing a file whole or not at all: a temporary file beside it, then a rename. */

describe('writeFileAtomic', () => {
  const tempDir = useTempDirs('qe-atomic')

  it('writes the text, making the folder, as 0600 unless told; leaves no temporary file', async () => {
    const dir = tempDir()
    const path = join(dir, 'nested', 'deeper', 'file.json')
    await writeFileAtomic(path, 'first ü')
    expect(readFileSync(path, 'utf8')).toBe('first ü')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    await writeFileAtomic(path, 'second')
    expect(readFileSync(path, 'utf8')).toBe('second')
    expect(readdirSync(join(dir, 'nested', 'deeper'))).toEqual(['file.json'])
  })

  it('sets a mode given exactly, and "umask" gives what any new file gets', async () => {
    const dir = tempDir()
    await writeFileAtomic(join(dir, 'shared.txt'), 'x', 0o644)
    expect(statSync(join(dir, 'shared.txt')).mode & 0o777).toBe(0o644)
    const umask = process.umask()
    await writeFileAtomic(join(dir, 'plain.txt'), 'x', 'umask')
    expect(statSync(join(dir, 'plain.txt')).mode & 0o777).toBe(0o666 & ~umask)
  })

  it('a rename that fails leaves the old file as it was and no temporary file', async () => {
    const dir = tempDir()
    // A folder where the file should go: the rename over it fails.
    const path = join(dir, 'taken')
    mkdirSync(path)
    writeFileSync(join(path, 'inside'), 'kept')
    await expect(writeFileAtomic(path, 'new')).rejects.toMatchObject({ code: 'EISDIR' })
    expect(readdirSync(dir)).toEqual(['taken'])
    expect(readFileSync(join(path, 'inside'), 'utf8')).toBe('kept')
  })
})
