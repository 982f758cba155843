import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDispatcher, LONG_TEXT_LENGTH, MESSAGE_LIMITS } from '../../src/main/ipc/dispatch'
import type { CallContext, HandlerTable } from '../../src/main/ipc/handler-table'
import { createLogger } from '../../src/main/logging/logger'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * The one entry of every IPC message, over a handler table of the test's own
 * and a real logger: what reaches a handler, and every failure as data. (Every
 * channel's schema, and random messages against the app's own table, are
 * test/main/ipc-fuzz.test.ts.)
 */

describe('createDispatcher', () => {
  const tempDir = useTempDirs('qe-dispatch')

  function open(handlers: Partial<Record<string, (request: any, context: CallContext) => Promise<unknown>>>) {
    const dataDir = tempDir()
    const log = createLogger(dataDir)
    const dispatch = createDispatcher(handlers as unknown as HandlerTable, log)
    const logText = () => readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')
    return { dispatch, log, logText }
  }

  it('hands a handler the checked request and the caller\'s context, and answers its reply as data', async () => {
    const seen: unknown[] = []
    const { dispatch } = open({ 'connections:use': async (request, context) => (seen.push(request, context.signal), { used: request.connectionId }) })
    const signal = new AbortController().signal
    expect(await dispatch('connections:use', { connectionId: 'c1' }, { signal })).toEqual({ ok: true, data: { used: 'c1' } })
    expect(seen).toEqual([{ connectionId: 'c1' }, signal])
  })

  it('refuses an unknown channel, whatever it is, naming it', async () => {
    const { dispatch } = open({})
    expect(await dispatch('no:such', {})).toEqual({ ok: false, error: { code: 'validation', message: 'Unknown channel "no:such".' } })
    expect(await dispatch(null, {})).toEqual({ ok: false, error: { code: 'validation', message: 'Unknown channel (a null, not a channel name).' } })
    expect(await dispatch({ toString: false }, {})).toEqual({ ok: false, error: { code: 'validation', message: 'Unknown channel (a object, not a channel name).' } })
  })

  it('refuses a request that breaks the contract, naming each field and rule, before any handler runs', async () => {
    let ran = false
    const { dispatch } = open({ 'connections:use': async () => (ran = true) })
    const reply = await dispatch('connections:use', { connectionId: 5, extra: true })
    expect(reply.ok).toBe(false)
    if (reply.ok) return
    expect(reply.error.code).toBe('validation')
    expect(reply.error.message).toMatch(/^Invalid connections:use request: /)
    expect(reply.error.problems?.map((problem) => problem.field).sort()).toEqual(['(message)', 'connectionId'])
    expect(ran).toBe(false)
  })

  it('bounds every message before its schema: string length, depth, entries; a hostile getter is refused, not thrown', async () => {
    const { dispatch } = open({})
    const long = await dispatch('connections:use', { connectionId: 'x'.repeat(MESSAGE_LIMITS.stringLength + 1) })
    expect(long).toEqual({
      ok: false,
      error: {
        code: 'validation',
        message: 'Invalid connections:use request: connectionId: text longer than 10,000 characters (10,001)',
        problems: [{ field: 'connectionId', message: 'text longer than 10,000 characters (10,001)' }],
      },
    })
    let deep: unknown = 'x'
    for (let i = 0; i < MESSAGE_LIMITS.depth + 1; i++) deep = { a: deep }
    expect(await dispatch('connections:use', deep)).toMatchObject({ ok: false, error: { problems: [{ message: 'nested deeper than 16 levels' }] } })
    expect(await dispatch('history:list', { text: Array.from({ length: 1_001 }, () => 1) })).toMatchObject({
      ok: false,
      error: { problems: [{ field: 'text', message: 'more than 1,000 entries' }] },
    })
    const hostile = Object.defineProperty({}, 'connectionId', { enumerable: true, get: () => { throw new Error('boom') } })
    expect(await dispatch('connections:use', hostile)).toEqual({ ok: false, error: { code: 'validation', message: 'Invalid connections:use request: it could not be read.' } })
  })

  it("lets a draft's parameter value be long, up to its own bound", async () => {
    const { dispatch } = open({ 'workspace:draft': async () => null })
    const draft = (notes: string) => ({ draft: { connectionId: 'x', request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'e', parameters: { q: notes } }], responseType: 'results', options: {} }, savedQuery: null } })
    expect(await dispatch('workspace:draft', draft('x'.repeat(MESSAGE_LIMITS.stringLength + 1)))).toEqual({ ok: true, data: null })
    expect(await dispatch('workspace:draft', draft('x'.repeat(LONG_TEXT_LENGTH + 1)))).toMatchObject({ ok: false, error: { code: 'validation' } })
  })

  it('an ExplorerError is answered as data with secrets scrubbed; anything else as "internal", its details only in the log', async () => {
    const { dispatch, log, logText } = open({
      'connections:use': async () => {
        throw new ExplorerError('auth', 'The server said: the-secret is wrong', { status: 401 })
      },
      'connections:delete': async () => {
        throw new TypeError('cannot read x of undefined')
      },
    })
    log.redact('the-secret')
    expect(await dispatch('connections:use', { connectionId: 'c' })).toEqual({ ok: false, error: { code: 'auth', message: 'The server said: [redacted] is wrong', status: 401 } })
    expect(await dispatch('connections:delete', { id: 'c' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Something went wrong inside Query Explorer; the details are in the log.' },
    })
    const lines = logText()
    expect(lines).toContain('connections:use failed: auth: The server said: [redacted] is wrong')
    expect(lines).toContain('connections:delete failed unexpectedly: TypeError: cannot read x of undefined')
    expect(lines).not.toContain('the-secret')
  })
})
