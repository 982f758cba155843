import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTextFile, type TextFileKind } from '../../src/main/storage/text-file'
import { useTempDirs } from '../fixtures/temp-dirs'

/** A text file the user named, read whole through its bound, over real files in a temp folder. */

const KIND: TextFileKind = {
  maxBytes: 16,
  noun: 'a judgments file',
  tooLarge: (name, size) => `"${name}" is too large (${size ?? '17 or more'} bytes).`,
}

describe('readTextFile', () => {
  const folder = useTempDirs('qe-text-file')

  it('reads UTF-8 text up to the bound, and says how many bytes it was', async () => {
    const path = join(folder(), 'grades.csv')
    writeFileSync(path, 'q,é,2\n')
    expect(await readTextFile(path, 'grades.csv', KIND)).toEqual({ ok: true, text: 'q,é,2\n', bytes: 7 })
  })

  it('refuses a file over the bound by its size, before reading it', async () => {
    const path = join(folder(), 'big.csv')
    writeFileSync(path, 'x'.repeat(17))
    expect(await readTextFile(path, 'big.csv', KIND)).toEqual({ ok: false, message: '"big.csv" is too large (17 bytes).' })
  })

  it('refuses a file that says it is empty but passes the bound while read (a /proc file), and what is not a file', async () => {
    // /proc files are files of size 0 that hold text: only the bounded read can tell.
    expect(await readTextFile('/proc/self/maps', 'maps', KIND)).toEqual({ ok: false, message: '"maps" is too large (17 or more bytes).' })
    expect(await readTextFile('/dev/zero', 'zero', KIND)).toEqual({ ok: false, message: '"zero" is not a file.' })
    const at = folder()
    mkdirSync(join(at, 'a-folder'))
    expect(await readTextFile(join(at, 'a-folder'), 'a-folder', KIND)).toEqual({ ok: false, message: '"a-folder" is not a file.' })
  })

  it('refuses bytes that are not UTF-8, and a missing file, naming the file and not its folder', async () => {
    const at = folder()
    writeFileSync(join(at, 'latin1.csv'), Buffer.from([0x71, 0x2c, 0xe9, 0x0a]))
    expect(await readTextFile(join(at, 'latin1.csv'), 'latin1.csv', KIND)).toEqual({ ok: false, message: '"latin1.csv" is not UTF-8 text, so it is not a judgments file.' })
    const missing = await readTextFile(join(at, 'gone.csv'), 'gone.csv', KIND)
    expect(missing).toEqual({ ok: false, message: '"gone.csv" was not found.' })
  })
})
