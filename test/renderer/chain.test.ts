import { createPinia, setActivePinia } from 'pinia'
import { nextTick } from 'vue'
import { beforeEach, describe, expect, it } from 'vitest'
import { answerAsDemo, fakeBridge, installBridge } from './fake-bridge'

const fake = fakeBridge()
installBridge(fake)
const { useChainStore } = await import('../../src/renderer/stores/chain')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useQueryStore } = await import('../../src/renderer/stores/query')

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

const search = (query: string) => ({ endpoint: 'search', parameters: { query } })

describe('chain store: editing', () => {
  it('starts with one empty endpoint step', () => {
    const chain = useChainStore()
    expect(chain.chain).toHaveLength(1)
    expect(chain.chain[0]).toMatchObject({ enabled: true, step: { endpoint: '', parameters: {} } })
  })

  it('adds, updates, moves, disables and removes steps', () => {
    const chain = useChainStore()
    chain.updateStep(0, search('madrid'))
    chain.addContextStep()
    chain.addEndpointStep()
    expect(chain.chain.map((entry) => entry.step)).toEqual([search('madrid'), { context: { '': '' } }, { endpoint: '', parameters: {} }])
    // Each step has its own id, for the cards' keys.
    expect(new Set(chain.chain.map((entry) => entry.id)).size).toBe(3)

    chain.updateStep(2, { endpoint: 'near', parameters: {} })
    chain.moveStep(2, 1)
    expect(chain.chain.map((entry) => entry.step)).toEqual([search('madrid'), { endpoint: 'near', parameters: {} }, { context: { '': '' } }])

    chain.setStepEnabled(1, false)
    expect(chain.chain[1]!.enabled).toBe(false)
    expect(chain.steps).not.toContainEqual({ endpoint: 'near', parameters: {} })

    chain.removeStep(1)
    expect(chain.chain.map((entry) => entry.step)).toEqual([search('madrid'), { context: { '': '' } }])
  })

  it('starts again from the first page when the chain or an option changes', async () => {
    const chain = useChainStore()
    chain.offset = 40
    chain.updateStep(0, search('paris'))
    await nextTick()
    expect(chain.offset).toBe(0)
    chain.offset = 20
    chain.level = 2
    await nextTick()
    expect(chain.offset).toBe(0)
  })

  it("builds the request from the chain, the options and the connection's workspace", async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    chain.updateStep(0, search('madrid'))
    chain.count = 25
    // config always goes, default included, as the official clients send it.
    expect(chain.request('results', 50)).toEqual({
      workspace: 'world', api: 'places', steps: [search('madrid')], responseType: 'results', options: { config: 'default', count: 25, offset: 50 },
    })
    expect(chain.requestUrl).toBe('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/madrid/results?config=default&count=25')
  })
})

describe('chain store: loading a request or a URL', () => {
  it('puts a request in place, its page included, and runs nothing', async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    chain.problems = [{ field: 'steps.0', message: 'old' } as never]
    const loading = chain.loadRequest({
      workspace: 'world', api: 'places', steps: [search('lima')], responseType: 'resultpage',
      options: { count: 25, offset: 50, level: 2, cutoff: 0.5, config: 'nightly' },
    })
    expect(chain.loading).toBe(true)
    await loading
    expect(chain.loading).toBe(false)
    expect(chain.chain.map((entry) => entry.step)).toEqual([search('lima')])
    expect(chain).toMatchObject({ responseType: 'resultpage', count: 25, level: 2, cutoff: 0.5, offset: 50, problems: [] })
    expect(useConnectionsStore().config).toBe('nightly')
    // Nothing was sent.
    expect(fake.calls.filter((call) => call.channel === 'query:run')).toEqual([])
  })

  it('reads a pasted URL into the chain, with a note when it came from elsewhere', async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    const own = await chain.replaceFromUrl('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/oslo/results?count=50&offset=100')
    expect(own).toEqual({ ok: true, note: null })
    expect(chain.chain.map((entry) => entry.step)).toEqual([search('oslo')])
    expect(chain.count).toBe(50)
    expect(chain.offset).toBe(100)

    const other = await chain.replaceFromUrl('http://127.0.0.1:1/query/world/api/places/e/search/p/query/rome/results')
    expect(other).toEqual({ ok: true, note: 'Read from http://127.0.0.1:1/query — it runs on the current connection, Demo.' })
    expect(chain.steps).toEqual([search('rome')])
  })

  it('keeps an option it does not know from a pasted URL, shows it as a row, and sends it with every request', async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    const pasted = await chain.replaceFromUrl('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/oslo/results?dev_version=master&count=10')
    expect(pasted).toEqual({ ok: true, note: null })
    expect(chain.extraOptions.map(({ name, value }) => [name, value])).toEqual([['dev_version', 'master']])
    expect(chain.requestUrl).toBe('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/oslo/results?config=default&count=10&dev_version=master')
    expect(chain.request('count').options).toEqual({ config: 'default', extra: { dev_version: 'master' } })

    // Edited, added to and removed from as rows; a row still empty sends nothing.
    const first = chain.extraOptions[0]!.id
    chain.updateExtraOption(first, { value: 'main' })
    const added = chain.addExtraOption()
    expect(chain.request('results').options.extra).toEqual({ dev_version: 'main' })
    chain.updateExtraOption(added, { name: 'trace', value: '1' })
    expect(chain.requestUrl).toMatch(/results\?config=default&count=10&dev_version=main&trace=1$/)
    chain.removeExtraOption(first)
    expect(chain.request('results').options.extra).toEqual({ trace: '1' })
    chain.removeExtraOption(added)
    expect(chain.request('results').options).not.toHaveProperty('extra')
  })

  it('leaves the chain as it was when the URL does not read, and says why', async () => {
    const chain = useChainStore()
    expect(await chain.replaceFromUrl('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/x/results')).toEqual({
      ok: false, message: 'Choose a connection first: the URL runs on it.',
    })
    await useConnectionsStore().load()
    chain.updateStep(0, search('madrid'))
    const outcome = await chain.replaceFromUrl('not a url')
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(outcome.message).toMatch(/^[A-Z].*\.$/)
    expect(chain.steps).toEqual([search('madrid')])
  })
})

describe('chain store: an empty step', () => {
  const URL_OF_MADRID = 'http://127.0.0.1:4123/query/world/api/places/e/search/p/query/madrid/results?config=default&count=10'

  it('is left out of the URL and of the request, wherever it stands and whatever kind it is', async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    chain.updateStep(0, search('madrid'))
    chain.addEndpointStep()
    chain.addContextStep()
    expect(chain.requestUrl).toBe(URL_OF_MADRID)
    expect(chain.request('statistics').steps).toEqual([search('madrid')])
    // An endpoint cleared after it had parameters is empty too: its parameters never reach the URL.
    chain.updateStep(1, { endpoint: '', parameters: { min: '', max: '' } })
    expect(chain.requestUrl).toBe(URL_OF_MADRID)
    expect(chain.requestUrl).not.toContain('/e//')
  })

  it('is named at Run, by its own card number, and nothing is sent', async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    const query = useQueryStore()
    chain.updateStep(0, search('madrid'))
    chain.addEndpointStep()
    chain.addEndpointStep()
    chain.updateStep(2, { endpoint: 'population', parameters: { min: 'x' } })
    await query.run()
    expect(fake.calls.filter((call) => call.channel === 'query:run')).toEqual([])
    expect(query.phase).toBe('error')
    expect(chain.problems.map((problem) => [problem.field, problem.message])).toEqual([
      ['steps[1].endpoint', 'Step 2 is empty: choose its endpoint, or remove the step'],
    ])
    expect(query.failure?.message).toContain('Step 2 is empty: choose its endpoint, or remove the step')
    // Filling the card in takes its flag away at once; the next Run checks again.
    chain.updateStep(1, { endpoint: 'near', parameters: {} })
    expect(chain.problems).toEqual([])
    chain.updateStep(1, { endpoint: '', parameters: {} })

    // Switched off or removed, it no longer stands in the way.
    chain.setStepEnabled(1, false)
    chain.updateStep(2, { endpoint: 'population', parameters: { min: '5' } })
    await query.run()
    expect(chain.problems).toEqual([])
    expect(fake.calls.filter((call) => call.channel === 'query:run').length).toBeGreaterThan(0)
  })

  it('alone in the chain is named as the step to fill in', async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    await useQueryStore().run()
    expect(chain.problems.map((problem) => problem.message)).toEqual(['Step 1 is empty: choose its endpoint, or remove the step'])
  })
})
