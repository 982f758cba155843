import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { importOldFolder } from '../../src/main/storage/data-store/kept-import'
import { useMigratedDb } from '../fixtures/migrated-db'
import { useTempDirs } from '../fixtures/temp-dirs'

/** A folder of kept records from before the database: imported once, oldest first, a damaged record skipped, the folder set aside. */

const Kept = z.object({ id: z.string(), n: z.number() })
type Kept = z.infer<typeof Kept>
const id = (n: number) => `0000000${n}-0000-4000-8000-000000000000`

function folderWith(dataDir: string, records: Record<string, string>, index?: string[]): string {
  const path = join(dataDir, 'evaluations')
  mkdirSync(path)
  let second = 1_700_000_000
  for (const [name, text] of Object.entries(records)) {
    writeFileSync(join(path, name), text)
    // Written a second apart, in the order given: the order used where the index says nothing.
    utimesSync(join(path, name), second, second++)
  }
  if (index) writeFileSync(join(path, 'index.json'), JSON.stringify({ records: index.map((each) => ({ id: each })) }))
  return path
}

describe('importOldFolder', () => {
  const migratedDb = useMigratedDb()
  const tempDir = useTempDirs('qe-kept-import')

  it('imports in the index\'s order, then the rest by when each was written, and sets the folder aside', () => {
    const dataDir = tempDir()
    const record = (n: number) => JSON.stringify({ id: id(n), n })
    folderWith(dataDir, { [`${id(1)}.json`]: record(1), [`${id(2)}.json`]: record(2), [`${id(3)}.json`]: record(3), [`${id(4)}.json`]: record(4), 'notes.txt': 'not a record' }, [id(3), id(1)])
    const added: number[] = []
    const result = importOldFolder<Kept>(migratedDb(), dataDir, 'evaluations', Kept, (kept) => added.push(kept.n))
    expect(result).toEqual({ imported: 4, skipped: 0 })
    expect(added).toEqual([3, 1, 2, 4])
    expect(readdirSync(dataDir)).toEqual(['evaluations.imported'])
  })

  it('skips and counts a record that does not read, names another id, or is refused by the check before keeping', () => {
    const dataDir = tempDir()
    folderWith(dataDir, {
      [`${id(1)}.json`]: '{"id":"cut',
      [`${id(2)}.json`]: JSON.stringify({ id: id(9), n: 2 }),
      [`${id(3)}.json`]: JSON.stringify({ id: id(3), n: -1 }),
      [`${id(4)}.json`]: JSON.stringify({ id: id(4), n: 4 }),
    })
    const added: number[] = []
    const result = importOldFolder<Kept>(migratedDb(), dataDir, 'evaluations', Kept, (kept) => {
      if (kept.n < 0) throw new Error('refused')
      added.push(kept.n)
    })
    expect(result).toEqual({ imported: 1, skipped: 3 })
    expect(added).toEqual([4])
  })

  it('imports a folder once: after a crash before the rename, the next start only sets it aside', () => {
    const dataDir = tempDir()
    const db = migratedDb()
    expect(importOldFolder<Kept>(db, dataDir, 'evaluations', Kept, () => undefined)).toBeNull()
    writeFileSync(join(dataDir, 'evaluations'), 'a file, not a folder')
    expect(importOldFolder<Kept>(db, dataDir, 'evaluations', Kept, () => undefined)).toBeNull()

    const other = tempDir()
    folderWith(other, { [`${id(1)}.json`]: JSON.stringify({ id: id(1), n: 1 }) })
    expect(importOldFolder<Kept>(db, other, 'evaluations', Kept, () => undefined)).toEqual({ imported: 1, skipped: 0 })
    // The folder is back where it was, as if the rename had not happened.
    folderWith(other, { [`${id(2)}.json`]: JSON.stringify({ id: id(2), n: 2 }) })
    let called = 0
    expect(importOldFolder<Kept>(db, other, 'evaluations', Kept, () => called++)).toEqual({ imported: 1, skipped: 0 })
    expect(called).toBe(0)
    expect(existsSync(join(other, 'evaluations'))).toBe(false)
    expect(readdirSync(other).sort()).toEqual(['evaluations.imported', 'evaluations.imported-2'])
  })
})
