import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { answerAsDemo, fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * The workbench store (src/renderer/stores/workbench.ts): the view chosen is
 * kept by main, and the Compare view and the compare store's `open` (what Run
 * runs) are one. view-prefs.test.ts follows the view from main's copy at start.
 */

const fake = fakeBridge()
installBridge(fake)
const { useWorkbenchStore } = await import('../../src/renderer/stores/workbench')
const { useCompareStore } = await import('../../src/renderer/stores/compare')

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

describe('workbench store', () => {
  it('opens the comparison with the Compare view and closes it with any other, and sends each choice to main', async () => {
    const workbench = useWorkbenchStore()
    const compare = useCompareStore()
    workbench.select('compare')
    expect([workbench.view, compare.open]).toEqual(['compare', true])
    workbench.select('history')
    expect([workbench.view, compare.open]).toEqual(['history', false])
    workbench.select('tests')
    expect(compare.open).toBe(false)
    await settle()
    expect(fake.calls.filter((call) => call.channel === 'view-prefs:set').map((call) => call.request)).toEqual([{ view: 'compare' }, { view: 'history' }, { view: 'tests' }])
  })

  it("restores main's Compare view with the comparison open, without sending it back", async () => {
    fake.answers['view-prefs:get'] = { view: 'compare' }
    const workbench = useWorkbenchStore()
    workbench.restore(['results', 'compare'])
    await settle()
    await settle()
    expect([workbench.view, useCompareStore().open]).toEqual(['compare', true])
    expect(fake.calls.filter((call) => call.channel === 'view-prefs:set')).toEqual([])
  })
})
