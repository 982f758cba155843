import { describe, expect, it } from 'vitest'
import { memorySecretStore } from '../../src/main/credentials/secret-store'

/** The in-memory secret store: where secrets live when no OS keychain answers, and a demo connection's secret. */

describe('memorySecretStore', () => {
  it('keeps secrets per account for its own life only, and says where they are', async () => {
    const store = memorySecretStore('Kept in memory for this run.')
    expect([store.kind, store.detail, store.held()]).toEqual(['memory', 'Kept in memory for this run.', false])
    expect(await store.get('secret:a')).toBeNull()
    await store.set('secret:a', 'one')
    await store.set('secret:b', 'two')
    await store.set('secret:a', 'three')
    expect([await store.get('secret:a'), await store.get('secret:b')]).toEqual(['three', 'two'])
    expect(await store.delete('secret:a')).toBe(true)
    expect(await store.delete('secret:a')).toBe(false)
    expect(await store.get('secret:a')).toBeNull()
    expect(await memorySecretStore('another').get('secret:b')).toBeNull()
  })
})
