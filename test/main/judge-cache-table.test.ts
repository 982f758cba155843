import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import { JudgeCacheTable, judgeCacheOf } from '../../src/main/storage/data-store/judge-cache-table'
import { migrate } from '../../src/main/storage/data-store/schema'
import { useDataStores } from '../fixtures/data-stores'
import { useTempDirs } from '../fixtures/temp-dirs'

/** The judges' cache in the data folder's database, through its thread as the app opens it: a grade kept survives a restart. */

const digest = 'a'.repeat(64)

describe('judge cache', () => {
  const tempDir = useTempDirs('qe-judge-cache')
  const dataStore = useDataStores()

  it('keeps a grade by its key through the store thread, and has it again after a reopen', async () => {
    const dir = tempDir()
    const store = dataStore(dir)
    const cache = judgeCacheOf(store)
    expect(await cache.get('k1')).toBeNull()
    await cache.set('k1', { grade: 2, explanation: 'Named exactly "Paris".', promptDigest: digest })
    expect(await cache.get('k1')).toEqual({ grade: 2, explanation: 'Named exactly "Paris".' })
    // The same key graded again takes the newer answer.
    await cache.set('k1', { grade: 3, explanation: 'Better.', promptDigest: digest })
    expect(await cache.get('k1')).toEqual({ grade: 3, explanation: 'Better.' })
    await store.close()
    expect(await judgeCacheOf(dataStore(dir)).get('k1')).toEqual({ grade: 3, explanation: 'Better.' })
  })

  it('keeps the newest grades to its bound, dropping the oldest', () => {
    const db = new Database(':memory:')
    try {
      migrate(db)
      const table = new JudgeCacheTable(db, 1_500)
      for (let i = 0; i < 3_000; i++) table.set(`k${i}`, { grade: i % 4, explanation: '', promptDigest: digest })
      // Trimmed every 1,000 writes: after the 3,000th, the newest 1,500 are kept.
      expect(table.get('k0')).toBeNull()
      expect(table.get('k1499')).toBeNull()
      expect(table.get('k1500')).toEqual({ grade: 0, explanation: '', promptDigest: digest })
      expect(table.get('k2999')).toEqual({ grade: 3, explanation: '', promptDigest: digest })
    } finally {
      db.close()
    }
  })
})
