import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { CITIES } from '../fixtures/judgment-sets'
import { answerAsDemo, fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * The query sets store (src/renderer/stores/query-sets.ts): the set chosen
 * follows the workspace's list, and a rating shows at once and is undone,
 * alone, when main refuses it.
 */

const fake = fakeBridge()
installBridge(fake)
const { useQuerySetsStore } = await import('../../src/renderer/stores/query-sets')
const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')
const { useToastsStore } = await import('../../src/renderer/stores/toasts')

const VIEW = { name: 'w', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], bindings: [] }
const withSets = (...names: string[]) => ({ ...VIEW, sets: names.map((name) => ({ name, queries: 5, judgments: 7 })) }) as never
const gradesOf = (sets: ReturnType<typeof useQuerySetsStore>, query: string) => Object.fromEntries(sets.grades.get(query) ?? [])

beforeEach(() => {
  answerAsDemo(fake)
  fake.answers['sets:get'] = CITIES
  setActivePinia(createPinia())
})

/** The store with the Cities set chosen and loaded. */
async function citiesChosen() {
  const sets = useQuerySetsStore()
  useWorkspaceStore().show(withSets('World cities', 'Other'))
  await settle()
  expect(sets.chosen).toBe('World cities')
  expect(sets.set?.queries).toHaveLength(5)
  return sets
}

describe('query sets store', () => {
  it('chooses the first set of the list, follows a rename, and forgets the set when none is left', async () => {
    const sets = await citiesChosen()
    expect(fake.calls.filter((call) => call.channel === 'sets:get').map((call) => call.request)).toEqual([{ name: 'World cities' }])
    useWorkspaceStore().show(withSets('Other'))
    await settle()
    expect(sets.chosen).toBe('Other')
    useWorkspaceStore().show(withSets())
    await settle()
    expect(sets.chosen).toBeNull()
    expect(sets.set).toBeNull()
  })

  it('shows a rating at once, and when main refuses it undoes that rating alone and says why', async () => {
    const sets = await citiesChosen()
    fake.hold('sets:rate')
    const refused = sets.rate('q1', 'Q90', 0)
    const kept = sets.rate('q1', 'Q2', 2)
    expect(gradesOf(sets, 'q1')).toEqual({ Q90: 0, Q167646: 1, Q2: 2 })
    await settle()
    fake.held[0]!.refuse({ code: 'validation', message: 'The workspace is read-only.' })
    fake.held[1]!.answer(withSets('World cities'))
    await Promise.all([refused, kept])
    expect(gradesOf(sets, 'q1')).toEqual({ Q90: 3, Q167646: 1, Q2: 2 })
    expect(useToastsStore().toasts.map((toast) => [toast.tone, toast.message])).toEqual([['danger', 'The rating was not saved: The workspace is read-only.']])
  })

  it("rates in the grid only a grade of the set's scale, and only while a query is rated", async () => {
    const sets = await citiesChosen()
    expect(sets.rateInGrid('Q90', 2)).toBe(false)
    sets.ratingQuery = 'q1'
    fake.answers['sets:rate'] = withSets('World cities', 'Other')
    expect(sets.rateInGrid('Q90', 7)).toBe(false)
    expect(sets.rateInGrid('Q90', null)).toBe(true)
    await settle()
    expect(fake.calls.filter((call) => call.channel === 'sets:rate').map((call) => call.request)).toEqual([{ set: 'World cities', query: 'q1', item: 'Q90', grade: null }])
    expect(sets.ratingGrades.has('Q90')).toBe(false)
    expect(sets.gradeText(3)).toBe('3 Perfect')
    expect(sets.gradeText(7)).toBe('7')
  })
})
