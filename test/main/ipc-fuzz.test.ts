import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { CHANNELS, type Channel } from '../../src/shared/ipc/channels'
import { openCore } from './support'

/**
 * Every channel rejects malformed requests with a validation error, and the
 * main process answers each of thousands of random messages without a crash.
 * Uses whatever secret store answers (the fuzz never gets a valid secret in).
 */

/** One valid request per channel, to mutate. */
const VALID: Record<Channel, Record<string, unknown>> = {
  'app:info': {},
  'connections:list': {},
  'connections:save': { name: 'n', authUrl: 'http://127.0.0.1:1/a', queryUrl: 'http://127.0.0.1:1/q', workspace: 'w', api: 'a', clientId: 'c' },
  'connections:delete': { id: 'x' },
  'connections:test': { connectionId: 'x' },
  'connections:check': {
    connection: { name: 'n', authUrl: 'http://127.0.0.1:1/a', queryUrl: 'http://127.0.0.1:1/q', workspace: 'w', api: 'a', clientId: 'c' },
    secret: 's',
  },
  'connections:duplicate': { connectionId: 'x' },
  'connections:reauth': { connectionId: 'x' },
  'connections:use': { connectionId: 'x' },
  'secrets:set': { connectionId: 'x', secret: 's' },
  'secrets:clear': { connectionId: 'x' },
  'api:describe': { connectionId: 'x', api: 'a' },
  'api:learn': { connectionId: 'x', api: 'a' },
  'query:run': {
    connectionId: 'x',
    requestId: 'r',
    request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: {} }], responseType: 'results', options: {} },
  },
  'query:cancel': { requestId: 'r' },
  'history:list': { text: 'x' },
  'history:clear': {},
  'workspace:current': {},
  'workspace:new': {},
  'workspace:open': { recentId: 'x' },
  'workspace:import': { upload: 'no-such-upload' },
  'workspace:save': { saveAs: false },
  'workspace:save-query': { name: 'q', connectionId: 'x', request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: {} }], responseType: 'results', options: {} } },
  'workspace:rename-query': { name: 'q', newName: 'r' },
  'workspace:duplicate-query': { name: 'q' },
  'workspace:delete-query': { name: 'q' },
  'workspace:bind': { fileConnectionId: 'f', connectionId: 'x' },
  'workspace:create-connection': { fileConnectionId: 'f', secret: 's' },
  'workspace:recent': {},
  'workspace:draft': { draft: { connectionId: 'x', request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: {} }], responseType: 'results', options: {} }, savedQuery: null } },
  'workspace:set-facets': { connectionId: 'x', facets: [{ options: 'genre', selection: 'multiple', resetOnSearchChange: false }] },
  'export:start': { connectionId: 'x', request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: {} }], responseType: 'results', options: {} }, format: 'csv', rows: 10 },
  'export:status': { runId: 'x' },
  'export:cancel': { runId: 'x' },
  'copy-as:demo-with-secret': { connectionId: 'x', request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: {} }], responseType: 'results', options: {} } },
  'tests:start': { runId: 'r', target: { connectionId: 'x', config: 'c' } },
  'tests:status': { runId: 'r' },
  'tests:cancel': { runId: 'r' },
  'tests:add-from-query': { name: 't', connectionId: 'x', request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: {} }], responseType: 'results', options: {} } },
  'tests:edit': { name: 't', expect: { status: 200 } },
  'tests:delete': { name: 't' },
  'tests:update-snapshot': { name: 't' },
  'compare:run': { requestId: 'r', request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: {} }], responseType: 'results', options: {} }, a: { connectionId: 'x' }, b: { connectionId: 'y', config: 'c' }, depth: 10 },
  'view-prefs:get': {},
  'view-prefs:reset': {},
  'view-prefs:set': { theme: 'dark', view: 'tests', folds: { insights: { wide: false } } },
  'sets:get': { name: 's' },
  'sets:save': { set: { name: 's', template: { kind: 'saved', query: 'q' }, queries: [{ id: 'q1', text: 'paris' }] } },
  'sets:delete': { name: 's' },
  'sets:rate': { set: 's', query: 'q1', item: 'i', grade: 2 },
  'sets:settle': { set: 's', query: 'q1', item: 'i', grade: 2 },
  'sets:rater': {},
  'sets:agreement': { set: 's', steps: 2 },
  'sets:import': { set: 's', upload: 'u' },
  'sets:export': { set: 's', format: 'trec-qrels' },
  'eval:start': { runId: 'r', set: 's', depth: 10 },
  'eval:status': { runId: 'r' },
  'eval:cancel': { runId: 'r' },
  'eval:list': {},
  'eval:get': { id: 'x' },
  'eval:rankings': { id: 'x', offset: 0, limit: 10 },
  'eval:ranking': { id: 'x', query: 'q1' },
  'eval:scored': { id: 'x' },
  'eval:probability': { id: 'x', threshold: 1, share: 0.9 },
  'eval:judge-next': { id: 'x', limit: 50 },
  'eval:delete': { id: 'x' },
  'eval:run-file': { id: 'x' },
  'experiments:start': { runId: 'r', set: 's', sides: [{ connectionId: 'x', config: 'a' }, { connectionId: 'x', config: 'b' }], depth: 10, attribution: true, alpha: 0.05 },
  'experiments:status': { runId: 'r' },
  'experiments:cancel': { runId: 'r' },
  'experiments:list': {},
  'experiments:get': { id: 'x' },
  'experiments:judge-next': { id: 'x', limit: 50 },
  'judges:save': { judge: { name: 'j', provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' } },
  'judges:delete': { name: 'j' },
  'judges:key-status': { name: 'j' },
  'judges:set-key': { name: 'j', key: 'k' },
  'judges:clear-key': { name: 'j' },
  'judges:start': { runId: 'r', judge: 'j', set: 's', budgetCalls: 1, dryRun: true },
  'judges:status': { runId: 'r' },
  'judges:cancel': { runId: 'r' },
  'judges:calibration': { judge: 'j', set: 's' },
  'experiments:verdict': { id: 'x', judge: 'j' },
}

const WRONG_TYPES = [42, -1.5, true, null, [], ['x'], { nested: 'object' }, '']

describe('IPC validation', () => {
  let dataDir: string
  let core: AppCore

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'qe-fuzz-'))
    core = await openCore(dataDir, { keychainService: `query-explorer-fuzz-${process.pid}` })
  })
  afterAll(async () => {
    await core?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const expectValidation = async (channel: unknown, payload: unknown) => {
    const result = await core.dispatch(channel, payload)
    expect(result.ok, `${channel} accepted ${JSON.stringify(payload)?.slice(0, 200)}`).toBe(false)
    if (!result.ok) {
      expect(result.error.code, `${channel} ${JSON.stringify(payload)?.slice(0, 200)}`).toBe('validation')
      expect(result.error.message.length).toBeLessThan(8_000)
    }
  }

  it('rejects extra fields, wrong types and huge strings on every channel', async () => {
    for (const channel of CHANNELS) {
      const valid = VALID[channel]
      await expectValidation(channel, { ...valid, extra: 1 })
      await expectValidation(channel, 'not an object')
      await expectValidation(channel, [valid])
      for (const field of Object.keys(valid)) {
        for (const wrong of WRONG_TYPES) {
          if (field === 'api' && wrong === '') continue // an empty default API is allowed
          if (channel === 'connections:save' && ['authUrl', 'clientId'].includes(field) && wrong === '') continue
          if (channel === 'history:list' && wrong === '') continue // an empty search lists everything
          if (channel === 'workspace:save' && wrong === true) continue // "Save as" is a request, not a wrong type
          if (channel === 'export:start' && field === 'rows' && wrong === 42) continue // 42 rows is a fine export
          if (channel === 'workspace:set-facets' && Array.isArray(wrong) && wrong.length === 0) continue // no facets declared is a fine list
          if ((channel === 'sets:rate' || channel === 'sets:settle') && field === 'grade' && (wrong === null || wrong === 42)) continue // null clears a rating; 42 is a grade a scale may have
          if ((channel === 'eval:start' || channel === 'experiments:start') && field === 'depth' && wrong === 42) continue // 42 deep is a fine evaluation
          if (channel === 'eval:rankings' && (field === 'offset' || field === 'limit') && wrong === 42) continue // 42 rankings from the 42nd is a fine page
          if (channel === 'eval:probability' && field === 'threshold' && wrong === 42) continue // grade 42 is a threshold a scale may have
          if (channel === 'experiments:start' && field === 'attribution' && wrong === true) continue // true is the value itself
          if ((channel === 'eval:judge-next' || channel === 'experiments:judge-next') && field === 'limit' && wrong === 42) continue // 42 pairs is a fine queue
          if (channel === 'judges:start' && ((field === 'budgetCalls' && wrong === 42) || (field === 'dryRun' && wrong === true))) continue // a budget of 42 calls, and a dry run, are fine
          await expectValidation(channel, { ...valid, [field]: wrong })
        }
        if (typeof valid[field] === 'string') await expectValidation(channel, { ...valid, [field]: 'x'.repeat(50_000) })
      }
    }
    // Deep in a query: a huge parameter value, an extra option, a wrong step.
    const run = VALID['query:run'] as { request: Record<string, unknown> }
    await expectValidation('query:run', { ...run, request: { ...run.request, steps: [{ endpoint: 'e', parameters: { q: 'x'.repeat(20_000) } }] } })
    await expectValidation('query:run', { ...run, request: { ...run.request, options: { count: 10, sneaky: true } } })
    await expectValidation('query:run', { ...run, request: { ...run.request, steps: [{ endpoint: 1 }] } })
    await expectValidation('history:list', { limit: 1_001 })
    // What to judge next lists 1,000 pairs at most.
    await expectValidation('eval:judge-next', { id: 'x', limit: 1_001 })
    await expectValidation('experiments:judge-next', { id: 'x', limit: 1_001 })
    await expectValidation('history:list', { limit: 0 })
    await expectValidation('history:list', { limit: 2.5 })
    await expectValidation('history:list', { text: 'x'.repeat(20_000) })
    await expectValidation('query:run', { ...run, request: { ...run.request, steps: Array.from({ length: 5_000 }, () => ({ endpoint: 'e', parameters: {} })) } })
    let deep: unknown = {}
    for (let i = 0; i < 200; i++) deep = { deep }
    await expectValidation('connections:save', deep)
    await expectValidation('no:such:channel', {})
    await expectValidation(undefined, undefined)
  })

  it('answers thousands of random messages, never throws, and keeps working', async () => {
    const channel = fc.oneof(fc.constantFrom<unknown>(...CHANNELS), fc.string(), fc.anything())
    const mutated = fc.constantFrom(...CHANNELS).chain((name) =>
      fc.record({
        channel: fc.constant<unknown>(name),
        payload: fc.oneof(
          fc.anything(),
          fc.dictionary(fc.constantFrom(...Object.keys(VALID[name]), 'extra', '__proto__', 'constructor'), fc.anything()),
          fc.record({ ...Object.fromEntries(Object.keys(VALID[name]).map((key) => [key, fc.oneof(fc.string({ maxLength: 30 }), fc.anything())])) }),
        ),
      }),
    )
    let answered = 0
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.record({ channel, payload: fc.anything() }), mutated), async ({ channel: name, payload }) => {
        const result = await core.dispatch(name, payload)
        expect(typeof result.ok).toBe('boolean')
        if (!result.ok) {
          expect(typeof result.error.message).toBe('string')
          // Every refusal is a known one: nothing reached a handler unvalidated and blew up.
          expect(result.error.code).not.toBe('internal')
        }
        answered++
      }),
      { numRuns: 3_000 },
    )
    expect(answered).toBe(3_000)
    const info = await core.dispatch('app:info', {})
    expect(info.ok).toBe(true)
  })
})
