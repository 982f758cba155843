import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { RunningService } from '../../src/service'
import { ComparisonSchema, type Comparison, type ConnectionView } from '../../src/shared/ipc/contract'
import { openDemoBench, type DemoBench } from './demo-bench'
import { call, failure, keychainMissing, search, type TestServer } from './support'

/**
 * `compare:run` over the real dispatcher and the real demo service: default
 * against production for "san" (Sanaa moves to the top), a side the service
 * refuses shown next to the other's rows, one token for both sides of one
 * account, and `query:cancel` stopping both sides while a server holds them.
 */

const missing = await keychainMissing()

describe.skipIf(missing !== null)('compare over IPC', () => {
  let bench: DemoBench
  let service: RunningService
  let core: AppCore
  let silent: TestServer
  let silentConnection: ConnectionView

  const compare = async (request: Record<string, unknown>) => ComparisonSchema.parse(await call<Comparison>(core, 'compare:run', request))

  beforeAll(async () => {
    bench = await openDemoBench('compare')
    ;({ service, core, silent, silentConnection } = bench)
  })
  afterAll(async () => {
    await bench?.close()
  })

  it('compares default and production for "san": Sanaa moves to the top, RBO below 1, one token for both sides', async () => {
    const tokensBefore = service.tokenRequestCount()
    const result = await compare({
      requestId: 'cmp-1',
      request: search('san'),
      a: { connectionId: 'demo', config: 'default' },
      b: { connectionId: 'demo', config: 'production' },
      depth: 10,
    })
    expect(result.a).toMatchObject({ label: 'Demo · config default', status: 200, error: null })
    expect(result.b).toMatchObject({ label: 'Demo · config production', status: 200, error: null })
    expect(result.a.keys).toHaveLength(10)
    expect(result.a.keys[0]).toBe('3167796')
    expect(result.b.keys[0]).toBe('71137')
    expect(result.b.labels[0]).toBe('Sanaa')
    expect(result.a.total).toBe(result.b.total)
    expect(result.a.total).toBeGreaterThan(1000)
    // The statistics' distribution comes with each side, for the chart.
    expect(result.a.stats.length).toBeGreaterThan(0)
    expect(result.a.stats.reduce((sum, stat) => sum + stat.numResults, 0)).toBeGreaterThan(0)
    expect(result.figures!.rbo).toBeGreaterThan(0)
    expect(result.figures!.rbo).toBeLessThan(1)
    expect(result.figures!.overlap).toBeLessThan(10)
    expect(result.changes.find((change) => change.key === '71137')).toEqual({ key: '71137', rankA: null, rankB: 1, move: { kind: 'new' } })
    expect(result.changes.find((change) => change.key === '3167796')).toEqual({ key: '3167796', rankA: 1, rankB: 9, move: { kind: 'down', by: 8 } })
    expect(service.tokenRequestCount() - tokensBefore).toBe(1)

    // Deeper: 100 of each.
    const deep = await compare({ requestId: 'cmp-2', request: search('san'), a: { connectionId: 'demo' }, b: { connectionId: 'demo', config: 'production' }, depth: 100 })
    expect(deep.a.keys).toHaveLength(100)
    expect(deep.a.label).toBe('Demo')
    expect(deep.figures!.overlap).toBeGreaterThan(result.figures!.overlap)
  })

  it('shows a side the service refuses (an unknown config: 404) beside the other side\'s rows, with no figures', async () => {
    const result = await compare({
      requestId: 'cmp-3',
      request: search('san'),
      a: { connectionId: 'demo', config: 'default' },
      b: { connectionId: 'demo', config: 'no-such-config' },
      depth: 10,
    })
    expect(result.a.keys).toHaveLength(10)
    expect(result.b).toMatchObject({ status: 404, total: null, keys: [], stats: [] })
    expect(result.b.error).toMatch(/^The service answered 404: /)
    expect(result.b.error).toContain('no-such-config')
    expect(result.figures).toBeNull()
    expect(result.changes).toEqual([])
  })

  it('refuses an unknown connection or a request that cannot be sent, as a whole', async () => {
    expect((await failure(core, 'compare:run', { requestId: 'c', request: search('san'), a: { connectionId: 'demo' }, b: { connectionId: 'nope' }, depth: 10 })).code).toBe('not_found')
    const bad = { ...search('san'), steps: [] }
    expect((await failure(core, 'compare:run', { requestId: 'c', request: bad, a: { connectionId: 'demo' }, b: { connectionId: 'demo' }, depth: 10 })).code).toBe('validation')
  })

  it('stops both sides with query:cancel and its request id', async () => {
    const pending = core.dispatch('compare:run', {
      requestId: 'cmp-cancel',
      request: search('san'),
      a: { connectionId: silentConnection.id, config: 'default' },
      b: { connectionId: silentConnection.id, config: 'production' },
      depth: 10,
    })
    while (silent.seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(silent.seen.map((seen) => new URL(seen.url, silent.origin).searchParams.get('config')).sort()).toEqual(['default', 'production'])
    expect(await call(core, 'query:cancel', { requestId: 'cmp-cancel' })).toEqual({ cancelled: true })
    const result = await pending
    expect(result).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    // The id is free again: nothing is left to cancel under it.
    expect(await call(core, 'query:cancel', { requestId: 'cmp-cancel' })).toEqual({ cancelled: false })
  })
})
