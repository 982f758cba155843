import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readJsonFile, setAside } from '../../src/main/storage/json-file'
import { useTempDirs } from '../fixtures/temp-dirs'

/** The app's own small JSON files: missing, read and checked, or there but unreadable; an unreadable one set aside. */

const Schema = z.object({ version: z.literal(1), names: z.array(z.string()) })

describe('readJsonFile', () => {
  const tempDir = useTempDirs('qe-json-file')

  it('tells a missing file, a valid one, and one that is not JSON or not its schema apart', async () => {
    const dir = tempDir()
    const path = join(dir, 'file.json')
    expect(await readJsonFile(path, Schema)).toEqual({ kind: 'missing' })
    writeFileSync(path, '{"version":1,"names":["a"]}')
    expect(await readJsonFile(path, Schema)).toEqual({ kind: 'ok', value: { version: 1, names: ['a'] } })
    for (const text of ['{"version":1,"names":', '{"version":2,"names":[]}', '', 'null']) {
      writeFileSync(path, text)
      expect(await readJsonFile(path, Schema)).toEqual({ kind: 'unreadable' })
    }
  })

  it('throws a read error other than "no such file"', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'a-folder.json'))
    await expect(readJsonFile(join(dir, 'a-folder.json'), Schema)).rejects.toMatchObject({ code: 'EISDIR' })
  })

  it('sets a file aside as <name>.bad, over an older one', async () => {
    const dir = tempDir()
    const path = join(dir, 'prefs.json')
    writeFileSync(`${path}.bad`, 'older')
    writeFileSync(path, 'garbage')
    expect(await setAside(path)).toBe(`${path}.bad`)
    expect(readdirSync(dir)).toEqual(['prefs.json.bad'])
    expect(readFileSync(`${path}.bad`, 'utf8')).toBe('garbage')
  })
})
