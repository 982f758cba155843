import { describe, expect, it } from 'vitest'
import { nextTick, ref } from 'vue'
import { fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * The kept records of the chosen set (src/renderer/composables/useKeptRecords.ts):
 * the list follows the set (the latest list asked wins), and the newest is
 * shown unless the one shown is of this set already.
 */

installBridge(fakeBridge())
const { useKeptRecords } = await import('../../src/renderer/composables/useKeptRecords')
const { ExplorerClientError } = await import('../../src/renderer/api/explorer-client')

interface Kept {
  id: string
  set: string
}

/** Lists and gets the test answers by hand, in any order. */
function records() {
  const chosen = ref<string | null>('A')
  const error = ref<string | null>(null)
  const lists: { set: string; answer(list: Kept[]): void }[] = []
  const gets: string[] = []
  const kept = useKeptRecords<Kept, Kept>({
    chosen: () => chosen.value,
    list: (set) => new Promise((resolve) => lists.push({ set, answer: resolve })),
    get: async (id) => {
      gets.push(id)
      if (id === 'gone') throw new ExplorerClientError({ code: 'not_found', message: 'There is no evaluation "gone".' })
      return { id, set: id.slice(0, 1) }
    },
    error,
    unreadable: 'That evaluation could not be read',
  })
  return { chosen, error, lists, gets, kept }
}

describe('useKeptRecords', () => {
  it("lists the chosen set's records and shows the newest; the list of the set chosen last wins", async () => {
    const { chosen, lists, gets, kept } = records()
    expect(lists.map((list) => list.set)).toEqual(['A'])
    lists[0]!.answer([{ id: 'A2', set: 'A' }, { id: 'A1', set: 'A' }])
    await settle()
    expect(kept.shown.value?.id).toBe('A2')

    chosen.value = 'B'
    await nextTick()
    chosen.value = 'C'
    await nextTick()
    expect(lists.map((list) => list.set)).toEqual(['A', 'B', 'C'])
    lists[2]!.answer([{ id: 'C1', set: 'C' }])
    await settle()
    lists[1]!.answer([{ id: 'B1', set: 'B' }])
    await settle()
    expect(kept.kept.value.map((entry) => entry.id)).toEqual(['C1'])
    expect(kept.shown.value?.id).toBe('C1')
    expect(gets).toEqual(['A2', 'C1'])
  })

  it('keeps the record shown when it is of the set listed, and shows none for a set with none', async () => {
    const { chosen, lists, kept } = records()
    lists[0]!.answer([{ id: 'A2', set: 'A' }, { id: 'A1', set: 'A' }])
    await settle()
    await kept.show('A1')
    const again = kept.loadKept()
    lists[1]!.answer([{ id: 'A3', set: 'A' }, { id: 'A2', set: 'A' }, { id: 'A1', set: 'A' }])
    await again
    expect(kept.shown.value?.id).toBe('A1')
    chosen.value = 'Z'
    await nextTick()
    lists[2]!.answer([])
    await settle()
    expect(kept.shown.value).toBeNull()
    expect(kept.kept.value).toEqual([])
  })

  it('says why a record could not be read', async () => {
    const { error, kept } = records()
    await kept.show('gone')
    expect(error.value).toBe('That evaluation could not be read: There is no evaluation "gone".')
  })
})
