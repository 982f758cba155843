import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONNECTIONS_FILE, ConnectionStore } from '../../src/main/connections/connection-store'
import { useTempDirs } from '../fixtures/temp-dirs'

/** The saved profiles' file, connections.json in the data folder. */

const PROFILE = { name: 'Prod', authUrl: 'https://auth.example.com', queryUrl: 'https://query.example.com', workspace: 'world', api: 'places', clientId: 'c1' }

describe('ConnectionStore', () => {
  const tempDir = useTempDirs('qe-conn-store')

  it('starts empty without a file, and a saved profile is read back by a new store', async () => {
    const dir = tempDir()
    const store = new ConnectionStore(dir)
    await store.load()
    expect([store.list(), store.lastUsed(), store.problem]).toEqual([[], null, null])

    const saved = await store.save(PROFILE)
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/)
    await store.save({ ...saved, name: 'Production' })
    await store.markUsed(saved.id)
    expect(statSync(join(dir, CONNECTIONS_FILE)).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual([CONNECTIONS_FILE])

    const again = new ConnectionStore(dir)
    await again.load()
    expect(again.list()).toEqual([{ ...PROFILE, id: saved.id, name: 'Production' }])
    expect(again.lastUsed()).toBe(saved.id)
    expect(again.get('nobody')).toBeUndefined()
  })

  it('deleting the last used profile forgets it; deleting an unknown id changes nothing', async () => {
    const dir = tempDir()
    const store = new ConnectionStore(dir)
    const a = await store.save({ ...PROFILE, name: 'A' })
    const b = await store.save({ ...PROFILE, name: 'B' })
    await store.markUsed(a.id)
    expect(await store.delete('nobody')).toBe(false)
    expect(await store.delete(b.id)).toBe(true)
    expect(store.lastUsed()).toBe(a.id)
    expect(await store.delete(a.id)).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, CONNECTIONS_FILE), 'utf8'))).toEqual({ version: 1, connections: [] })
  })

  it('sets an unreadable file aside as .bad and says so; a reader that is not the app leaves it in place', async () => {
    for (const text of ['{ not json', JSON.stringify({ version: 2, connections: [] })]) {
      const dir = tempDir()
      writeFileSync(join(dir, CONNECTIONS_FILE), text)
      const reader = new ConnectionStore(dir)
      await reader.load({ setAside: false })
      expect(reader.problem).toBe(`The connections file ${join(dir, CONNECTIONS_FILE)} could not be read.`)
      expect(readdirSync(dir)).toEqual([CONNECTIONS_FILE])

      const app = new ConnectionStore(dir)
      await app.load()
      expect(app.problem).toBe(`The connections file could not be read and was kept as ${join(dir, CONNECTIONS_FILE)}.bad; starting with no saved connections.`)
      expect(app.list()).toEqual([])
      expect(readFileSync(join(dir, `${CONNECTIONS_FILE}.bad`), 'utf8')).toBe(text)
    }
  })
})
