import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TokenManager } from '../../src/main/auth/token-manager'
import { runComparison, type CompareSideTarget } from '../../src/main/compare/run-comparison'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { HttpClient } from '../../src/main/http/http-client'
import { QueryRunner, type QueryTarget } from '../../src/main/http/query-runner'
import { startService, type RunningService } from '../../src/service'
import { failureOf } from '../fixtures/failure-of'
import { search } from './support'

/**
 * Both sides of a comparison run at once against the embedded service (real
 * HTTP on 127.0.0.1, one account, its token in memory): each side's top
 * items with the total, a side the service refuses shown beside the other's,
 * a cancel or a request that cannot be sent thrown as a whole.
 */

describe('run comparison', () => {
  let service: RunningService
  let http: HttpClient
  let runner: QueryRunner
  let target: QueryTarget
  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    http = new HttpClient()
    runner = new QueryRunner(http, new TokenManager(http))
    const { clientId, clientSecret } = service.account
    target = {
      key: 'demo',
      queryUrl: service.queryUrl,
      account: { key: 'demo', authUrl: service.authUrl, queryOrigin: new URL(service.queryUrl).origin, workspace: service.workspace, clientId, secret: async () => clientSecret, cache: memorySecretStore('test memory') },
    }
  })
  afterAll(async () => {
    await http?.close()
    await service?.close()
  })

  const side = (config: string): CompareSideTarget => ({ runner, target, overrides: { config }, label: `Demo · config ${config}` })

  it('compares two configs\' top items: each side labelled, with its total, and the moves between them', async () => {
    const tokens = service.tokenRequestCount()
    const result = await runComparison({ requestId: 'cmp-1', request: search('san', { count: 3, offset: 20 }), depth: 10, a: side('default'), b: side('production') })
    expect(result.a).toMatchObject({ label: 'Demo · config default', status: 200, error: null })
    expect(result.b).toMatchObject({ label: 'Demo · config production', status: 200, error: null })
    // The depth asked, from the top whatever the request's count and offset.
    expect([result.a.keys.length, result.a.keys[0], result.b.keys[0], result.b.labels[0]]).toEqual([10, '3167796', '71137', 'Sanaa'])
    expect(result.a.total).toBe(result.b.total)
    expect(result.changes.find((change) => change.key === '3167796')).toEqual({ key: '3167796', rankA: 1, rankB: 9, move: { kind: 'down', by: 8 } })
    expect(result.figures!.rbo).toBeGreaterThan(0)
    expect(result.figures!.rbo).toBeLessThan(1)
    // Both sides of one account share one token.
    expect(service.tokenRequestCount() - tokens).toBe(1)
  })

  it("shows a side the service refuses beside the other side's rows, with no figures", async () => {
    const result = await runComparison({ requestId: 'cmp-2', request: search('san'), depth: 10, a: side('default'), b: side('no-such-config') })
    expect(result.a.keys).toHaveLength(10)
    expect(result.b).toMatchObject({ label: 'Demo · config no-such-config', status: 404, total: null, keys: [], stats: [] })
    expect(result.b.error).toMatch(/^The service answered 404: .*no-such-config/)
    expect([result.figures, result.changes]).toEqual([null, []])
  })

  it('throws a cancel, and a request that cannot be sent, as a whole', async () => {
    const cancel = new AbortController()
    cancel.abort()
    expect((await failureOf(runComparison({ requestId: 'cmp-3', request: search('san'), depth: 10, a: side('default'), b: side('production'), signal: cancel.signal }))).code).toBe('cancelled')
    const bad = { ...search('san'), steps: [] }
    expect((await failureOf(runComparison({ requestId: 'cmp-4', request: bad, depth: 10, a: side('default'), b: side('production') }))).code).toBe('validation')
  })
})
