import type { IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort } from '../fixtures/ports'
import { startRouteServer } from '../fixtures/route-server'
import type { Reply } from '../../src/service/http/reply'
import { fakeBridge } from './fake-bridge'

/**
 * The window's client (src/renderer/api/explorer-client.ts): a channel's
 * answer or main's refusal in main's words, and a request to the browser
 * host, whose every refusal is said in words, over real HTTP on 127.0.0.1.
 */

/** The page as the browser host serves it, after a reload: no code in the address, the tab's key kept in sessionStorage (Node has neither). */
const kept = new Map([['query-explorer.session-key', 'tab-key']])
const fake = fakeBridge()
;(globalThis as { window?: unknown }).window = { explorer: fake.bridge, location: { hash: '', pathname: '/', search: '' } }
;(globalThis as { sessionStorage?: unknown }).sessionStorage = { getItem: (key: string) => kept.get(key) ?? null, setItem: (key: string, value: string) => void kept.set(key, value) }
const { call, errorMessage, ExplorerClientError, hostRequest } = await import('../../src/renderer/api/explorer-client')

/** The host's answer to each path: /status/<code> answers that status with the body after `?`, /echo the key it was sent. */
async function route(request: IncomingMessage): Promise<Reply> {
  const url = new URL(request.url!, 'http://host')
  if (url.pathname === '/echo') return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: request.headers['x-explorer-key'] }) }
  if (url.pathname === '/cut') return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"key": "ta' }
  const status = Number(url.pathname.split('/')[2])
  return { status, headers: {}, body: decodeURIComponent(url.search.slice(1)) }
}

let host: Awaited<ReturnType<typeof startRouteServer>>
beforeAll(async () => void (host = await startRouteServer(route)))
afterAll(() => host?.close())

/** The words the host's refusal of `path` comes back with. */
const refusalOf = (path: string) =>
  hostRequest(`${host.origin}${path}`, { method: 'GET' }).then(
    () => 'answered',
    (error: unknown) => (error instanceof ExplorerClientError ? `${error.error.code}: ${error.message}` : error),
  )

describe('explorer client: channels', () => {
  it("answers a channel's data, and throws main's refusal in main's words", async () => {
    fake.answers['history:list'] = [{ id: 'h1' }]
    expect(await call('history:list', {})).toEqual([{ id: 'h1' }])
    fake.hold('history:clear')
    const refused = call('history:clear', {})
    fake.held[0]!.refuse({ code: 'internal', message: 'The data folder is read-only.' })
    const error = await refused.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ExplorerClientError)
    expect((error as InstanceType<typeof ExplorerClientError>).error.code).toBe('internal')
    expect(errorMessage(error)).toBe('The data folder is read-only.')
    // Anything else is the window's own fault: no stack, no internals.
    expect(errorMessage(new TypeError('x is undefined'))).toBe('Something unexpected went wrong in the window; try again.')
  })
})

describe('explorer client: the browser host', () => {
  it("sends the tab's key with each request and answers the host's JSON", async () => {
    expect(await hostRequest(`${host.origin}/echo`, { method: 'POST', body: '{}' })).toEqual({ key: 'tab-key' })
  })

  it('says in words why the host refused: its own sentence, else what the status means', async () => {
    expect(await refusalOf('/status/401')).toMatch(/^network: This page has no session with the app host: the address that opens it works once/)
    expect(await refusalOf(`/status/403?${encodeURIComponent('{"message":"The Origin header names another site."}')}`)).toBe('network: The Origin header names another site.')
    expect(await refusalOf('/status/413?too big')).toBe('network: The app host refused the request: it was larger than the host takes.')
    expect(await refusalOf(`/status/404?${encodeURIComponent('{"message":"  "}')}`)).toBe('network: The app host refused the request: the host does not know that address.')
    expect(await refusalOf('/status/418')).toBe('network: The app host refused the request: it answered HTTP 418.')
    expect(await refusalOf('/status/502')).toBe('network: Something went wrong inside the app host; the details are in its log.')
    expect(await refusalOf('/cut')).toBe("network: The app host's answer was cut short or is not JSON; try again.")
  })

  it('says the host cannot be reached when nothing listens', async () => {
    const port = await closedPort()
    await expect(hostRequest(`http://127.0.0.1:${port}/ipc/app:info`, { method: 'POST' })).rejects.toThrow('The app host cannot be reached. Is `npm start` still running?')
  })
})
