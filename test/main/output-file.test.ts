import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OutputFile } from '../../src/main/export/output-file'
import { useTempDirs } from '../fixtures/temp-dirs'

/** The file an export writes: a new file only, appended in order, its bytes counted, complete once finished. */
describe('output file', () => {
  const tempDir = useTempDirs('qe-output-file')

  it('appends text as UTF-8 and bytes in order, counting the bytes written', async () => {
    const path = join(tempDir(), 'out.csv')
    const out = await OutputFile.create(path)
    expect(out.bytes).toBe(0)
    await out.write('São,')
    // "São," is 5 bytes in UTF-8.
    expect(out.bytes).toBe(5)
    await out.write('')
    await out.write(new Uint8Array([0x31, 0x0d, 0x0a]))
    expect(out.bytes).toBe(8)
    await out.finish()
    expect(readFileSync(path, 'utf8')).toBe('São,1\r\n')
  })

  it('never overwrites a file that exists, and leaves it as it was', async () => {
    const path = join(tempDir(), 'taken.csv')
    writeFileSync(path, 'the user\'s own file')
    await expect(OutputFile.create(path)).rejects.toMatchObject({ code: 'EEXIST' })
    expect(readFileSync(path, 'utf8')).toBe('the user\'s own file')
  })

  it('closed without finishing (a cancelled export), even twice, it keeps what was written and throws nothing', async () => {
    const path = join(tempDir(), 'closed.csv')
    const out = await OutputFile.create(path)
    await out.write('a')
    await out.close()
    await out.close()
    expect(existsSync(path) && readFileSync(path, 'utf8')).toBe('a')
  })
})
