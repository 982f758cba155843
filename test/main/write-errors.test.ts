import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../src/main/storage/atomic-file'
import { writeError } from '../../src/main/workspaces/write-errors'
import { useTempDirs } from '../fixtures/temp-dirs'

/** A failed workspace save, said with the file's name, why, and what to do. */

const TAIL = 'The workspace is still open, with its changes.'
const errno = (code: string) => Object.assign(new Error(`${code}: system words`), { code })

describe('writeError', () => {
  const tempDir = useTempDirs('qe-write-errors')

  it('says each kind of failure in words, naming the file and its folder', () => {
    const path = '/home/me/work/team.qxw.json'
    const said = (code: string) => writeError(path, errno(code)).message
    expect(said('EACCES')).toBe(`"team.qxw.json" could not be saved: permission denied in /home/me/work. Choose another folder with Save as. ${TAIL}`)
    expect(said('EPERM')).toBe(said('EACCES'))
    expect(said('ENOSPC')).toBe(`"team.qxw.json" could not be saved: the disk is full. Make room, or choose another disk with Save as. ${TAIL}`)
    expect(said('EDQUOT')).toBe(said('ENOSPC'))
    expect(said('EROFS')).toBe(`"team.qxw.json" could not be saved: /home/me/work is on a read-only disk. Choose another folder with Save as. ${TAIL}`)
    expect(said('ENOENT')).toBe(`"team.qxw.json" could not be saved: the folder /home/me/work does not exist any more. Choose another folder with Save as. ${TAIL}`)
    expect(said('EMFILE')).toBe(`"team.qxw.json" could not be saved: EMFILE: system words ${TAIL}`)
    expect(writeError(path, 'not an error').message).toBe(`"team.qxw.json" could not be saved: not an error ${TAIL}`)
    expect(writeError(path, errno('EACCES')).code).toBe('validation')
  })

  it('a real failed write over a folder of that name says so', async () => {
    const path = join(tempDir(), 'team.qxw.json')
    mkdirSync(path)
    const failed = await writeFileAtomic(path, '{}').then(
      () => null,
      (error: unknown) => error,
    )
    expect(writeError(path, failed).message).toBe(`"team.qxw.json" could not be saved: a folder has that name. Choose another name with Save as. ${TAIL}`)
  })
})
