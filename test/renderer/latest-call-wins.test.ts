import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { answerAsDemo, fakeBridge, installBridge, settle } from './fake-bridge'

const fake = fakeBridge()
installBridge(fake)
const { useHistoryStore } = await import('../../src/renderer/stores/history')

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

describe('history store: the latest search wins', () => {
  it('shows the answer to the newest search, whatever order the answers come in', async () => {
    const history = useHistoryStore()
    fake.hold('history:list')
    const older = history.search('mad')
    const newer = history.search('madrid')
    await settle()
    expect(fake.held.map((call) => call.request.text)).toEqual(['mad', 'madrid'])

    fake.held[1]!.answer([{ url: 'newer' }])
    await newer
    expect(history.loading).toBe(false)
    fake.held[0]!.answer([{ url: 'older' }])
    await older
    expect(history.entries).toEqual([{ url: 'newer' }])
  })

  it('ignores the failure of an older search', async () => {
    const history = useHistoryStore()
    fake.hold('history:list')
    const older = history.search('a')
    const newer = history.search('ab')
    await settle()
    fake.held[1]!.answer([])
    fake.held[0]!.refuse({ code: 'internal', message: 'late failure' })
    await Promise.all([older, newer])
    expect(history.error).toBeNull()
  })
})
