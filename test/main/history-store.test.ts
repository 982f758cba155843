import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HistoryStore, OLD_HISTORY_FILE } from '../../src/main/history/history-store'
import { historyEntry as entry, storedHistory } from '../fixtures/history-entries'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * The run history in the data folder's database (a real one, on its own
 * thread): the newest 1,000 kept across restarts, the old history.jsonl
 * imported, an entry a run extends changed in its place.
 */

describe('history file', () => {
  const tempDir = useTempDirs('qe-history-file')
  // Every store a case opens is closed after it, failed or not: its database thread ends with it.
  const stores: HistoryStore[] = []
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()))
  })
  const open = (dir: string) => {
    const store = new HistoryStore(dir)
    stores.push(store)
    return store
  }

  it('keeps the newest 1,000, across restarts', async () => {
    const dir = tempDir()
    const store = open(dir)
    for (let n = 0; n < 1_050; n++) await store.add(entry(n))
    const listed = await store.list()
    await store.close()
    expect(listed).toHaveLength(1_000)
    expect(listed[0]!.id).toBe('e1049')
    expect(listed.at(-1)!.id).toBe('e50')

    // A restart reads the database back; further runs still keep the newest 1,000.
    const again = open(dir)
    expect((await again.list()).map((e) => e.id)).toEqual(listed.map((e) => e.id))
    for (let n = 1_050; n < 1_201; n++) await again.add(entry(n))
    await again.close()
    const after = await storedHistory(dir)
    expect(after).toHaveLength(1_000)
    expect(after[0]!.id).toBe('e1200')
    expect(after.at(-1)!.id).toBe('e201')
  })

  it('imports the old history.jsonl skipping a corrupt line and a half-written last line, and adds runs after them', async () => {
    const old = tempDir()
    const path = join(old, OLD_HISTORY_FILE)
    writeFileSync(path, `${JSON.stringify(entry(1))}\nnot json at all\n{"id":"incomplete"}\n${JSON.stringify(entry(2))}\n{"id":"e3","at":"20`)
    const store = open(old)
    expect((await store.list()).map((e) => e.id)).toEqual(['e2', 'e1'])
    await store.add(entry(4))
    await store.close()
    expect((await storedHistory(old)).map((e) => e.id)).toEqual(['e4', 'e2', 'e1'])
  })

  it('reads an entry written again later as its last line says, in its first line\'s place', async () => {
    const dir = tempDir()
    const store = open(dir)
    await store.add(entry(1, 10))
    await store.add(entry(2, 10))
    expect(await store.update('e1', (first) => ({ ...first, pages: 2, itemCount: 20 }))).toMatchObject({ pages: 2 })
    expect(await store.update('gone', (gone) => gone)).toBeNull()
    const expected = [entry(2, 10), { ...entry(1, 10), pages: 2, itemCount: 20 }]
    expect(await store.list()).toEqual(expected)
    await store.close()
    expect(await storedHistory(dir)).toEqual(expected)
  })
})
