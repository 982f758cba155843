import { promises as fs, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { unreadableFile } from '../../src/main/storage/unreadable-file'
import { useTempDirs } from '../fixtures/temp-dirs'

/** Why a file the user named could not be read, in a sentence that names the file and never its folder. */

/** The error the file system gives for reading `path`. */
async function readFailure(path: string): Promise<unknown> {
  return fs.readFile(path).then(
    () => {
      throw new Error(`${path} was read`)
    },
    (error: unknown) => error,
  )
}

describe('unreadableFile', () => {
  const folder = useTempDirs('qe-unreadable')

  it('says a missing file was not found, and a folder is not what was asked for', async () => {
    const at = folder()
    mkdirSync(join(at, 'sets.csv'))
    expect(unreadableFile('gone.qxw.json', await readFailure(join(at, 'gone.qxw.json')))).toBe('"gone.qxw.json" was not found.')
    expect(unreadableFile('sets.csv', await readFailure(join(at, 'sets.csv')))).toBe('"sets.csv" is a folder, not a file.')
    expect(unreadableFile('sets.csv', await readFailure(join(at, 'sets.csv')), 'a workspace file')).toBe('"sets.csv" is a folder, not a workspace file.')
  })

  it('says permission denied (the tests may run as root, where no file refuses: the error as the system gives it)', () => {
    const denied = Object.assign(new Error("EACCES: permission denied, open '/home/someone/private/x.csv'"), { code: 'EACCES' })
    expect(unreadableFile('x.csv', denied)).toBe('"x.csv" could not be read: permission denied.')
    expect(unreadableFile('x.csv', { ...denied, code: 'EPERM' })).toBe('"x.csv" could not be read: permission denied.')
  })

  it('tells any other failure by its code, never by the system message that names the full path', async () => {
    const at = folder()
    writeFileSync(join(at, 'plain'), 'x')
    const error = await readFailure(join(at, 'plain', 'x.qxw.json'))
    expect((error as Error).message).toContain(at)
    const said = unreadableFile('x.qxw.json', error, 'a workspace file')
    expect(said).toBe('"x.qxw.json" could not be read (ENOTDIR).')
    expect(said).not.toContain(at)
    expect(unreadableFile('x.qxw.json', new Error('no code'))).toBe('"x.qxw.json" could not be read (an error of the file system).')
  })
})
