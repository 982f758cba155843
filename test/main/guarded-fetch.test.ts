import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CallMeter } from '../../src/main/judges/call-meter'
import { FetchRefused, guardedFetch, withoutKey } from '../../src/main/judges/guarded-fetch'
import { secretForms } from '../../src/shared/security/redaction'
import { canaryKey, startLlmServer, type LlmServer } from '../fixtures/llm-servers'

/**
 * The fetch a provider SDK is given, alone over real HTTP on 127.0.0.1: what
 * it lets leave the process (the judge's origin only, within the budget,
 * never after a redirect) and how it stops the grade when it refuses.
 */

const KEY = canaryKey()
let judgeServer: LlmServer
let elsewhere: LlmServer

beforeAll(async () => {
  judgeServer = await startLlmServer('openai')
  elsewhere = await startLlmServer('openai')
})
afterAll(async () => {
  await judgeServer.close()
  await elsewhere.close()
})
beforeEach(() => {
  judgeServer.requests.length = 0
  elsewhere.requests.length = 0
})

const post = (body = '{"model":"gpt-test","messages":[{"role":"user","content":"x"}]}'): RequestInit => ({
  method: 'POST',
  headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
  body,
})

function guard(calls = 10, baseUrl = () => judgeServer.baseUrl) {
  const meter = new CallMeter({ calls })
  const stop = new AbortController()
  return { meter, stop, guarded: guardedFetch({ baseUrl: baseUrl(), meter, stop, key: KEY, auth: { name: 'authorization', value: `Bearer ${KEY}` } }) }
}

async function refusalOf(promise: Promise<unknown>): Promise<FetchRefused> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof FetchRefused)) throw new Error(`expected a refusal, got ${String(error)}`)
  return error
}

describe('the guarded fetch', () => {
  it('lets a request to the judge\'s origin through, taking one call for it', async () => {
    const { meter, guarded } = guard()
    const response = await guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post())
    expect(response.status).toBe(200)
    expect([judgeServer.requests.length, meter.calls, guarded.sent(), guarded.refusal()]).toEqual([1, 1, 1, null])
    expect(judgeServer.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('sends only the SDK\'s own headers and the key\'s header it sets itself; a name the environment gives the SDKs is dropped', async () => {
    const meter = new CallMeter({ calls: 10 })
    const env = { OPENAI_CUSTOM_HEADERS: 'User-Agent: from-env\nX-Stainless-Lang: from-env', ANTHROPIC_CUSTOM_HEADERS: 'Accept: from-env' }
    const guarded = guardedFetch({ baseUrl: judgeServer.baseUrl, meter, stop: new AbortController(), key: KEY, auth: { name: 'authorization', value: `Bearer ${KEY}` }, env })
    const headers = {
      authorization: 'Bearer replaced-by-the-environment',
      'api-key': 'another-key',
      'x-gateway-token': 'gateway-secret',
      cookie: 'session=1',
      'user-agent': 'from-env',
      'x-stainless-lang': 'from-env',
      accept: 'from-env',
      'x-stainless-retry-count': '0',
      'content-type': 'application/json',
    }
    await guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, { ...post(), headers })
    const sent = judgeServer.requests[0]!.headers
    expect([sent.authorization, sent['api-key'], sent['x-gateway-token'], sent.cookie, sent['x-stainless-lang']]).toEqual([`Bearer ${KEY}`, undefined, undefined, undefined, undefined])
    expect(JSON.stringify(sent)).not.toContain('from-env')
    expect([sent['x-stainless-retry-count'], sent['content-type']]).toEqual(['0', 'application/json'])
  })

  it('refuses any other origin: nothing is sent there, no call is taken, and the grade is stopped', async () => {
    const { meter, stop, guarded } = guard()
    const refusal = await refusalOf(guarded.fetch(`${elsewhere.baseUrl}/chat/completions`, post()))
    expect([refusal.kind, refusal.message]).toEqual([
      'origin',
      `A request to ${elsewhere.origin} was refused: the judge's key is only ever sent to ${judgeServer.origin}.`,
    ])
    expect([elsewhere.requests.length, meter.calls, stop.signal.aborted, guarded.refusal()]).toEqual([0, 0, true, refusal])
    // Stopped: not even the judge's own origin gets a request from this grade any more.
    expect(await refusalOf(guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post()))).toBe(refusal)
    expect(judgeServer.requests).toHaveLength(0)
  })

  it('the same host on another port or scheme is another origin', async () => {
    const port = Number(new URL(judgeServer.origin).port)
    for (const other of [`http://127.0.0.1:${port + 1}/v1/chat/completions`, `https://127.0.0.1:${port}/v1/chat/completions`, `http://localhost:${port}/v1/chat/completions`]) {
      expect((await refusalOf(guard().guarded.fetch(other, post()))).kind).toBe('origin')
    }
    expect(judgeServer.requests).toHaveLength(0)
  })

  it('takes a call before every request and refuses the one past the budget without sending it', async () => {
    const { meter, guarded } = guard(2)
    await guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post())
    await guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post())
    const refusal = await refusalOf(guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post()))
    expect([refusal.kind, refusal.message]).toEqual(['budget', 'Not sent: the budget is spent (2 of 2 calls sent).'])
    expect([judgeServer.requests.length, meter.calls, meter.stoppedByBudget]).toEqual([2, 2, true])
  })

  it('never follows a redirect: the status is named, the target receives nothing', async () => {
    judgeServer.script({ redirect: `${elsewhere.baseUrl}/chat/completions`, status: 308 })
    const { stop, guarded } = guard()
    const refusal = await refusalOf(guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post()))
    expect(refusal.kind).toBe('redirect')
    expect(refusal.message).toMatch(new RegExp(`^${judgeServer.origin} answered 308, a redirect to ${elsewhere.origin}: redirects are not followed`))
    expect([judgeServer.requests.length, elsewhere.requests.length, stop.signal.aborted]).toEqual([1, 0, true])
  })

  it('a redirect to a path of the same origin is refused too (the SDK would resend the body elsewhere than asked)', async () => {
    judgeServer.script({ redirect: '/v2/chat/completions', status: 301 })
    const refusal = await refusalOf(guard().guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post()))
    expect(refusal.message).toBe(
      `${judgeServer.origin} answered 301, a redirect: redirects are not followed, so the key is never sent anywhere but ${judgeServer.origin}. Set the judge's base URL to where the API answers.`,
    )
    expect(judgeServer.requests).toHaveLength(1)
  })

  it('passes the job\'s signal: a cancel ends a request waiting for its answer', async () => {
    judgeServer.script({ hang: true })
    const { stop, guarded } = guard()
    const pending = guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post())
    await judgeServer.received(1)
    stop.abort(new Error('cancelled by the job'))
    await expect(pending).rejects.toThrow('cancelled by the job')
  })

  it('passes the SDK\'s own signal too (its timeout)', async () => {
    judgeServer.script({ hang: true })
    const sdk = new AbortController()
    const pending = guard().guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, { ...post(), signal: sdk.signal })
    await judgeServer.received(1)
    sdk.abort(new Error('timed out'))
    await expect(pending).rejects.toThrow('timed out')
  })

  it('a base URL that does not parse: every request is refused', async () => {
    const refusal = await refusalOf(guard(10, () => 'not a url').guarded.fetch(`${judgeServer.baseUrl}/chat/completions`, post()))
    expect([refusal.kind, refusal.message]).toEqual(['origin', `A request to ${judgeServer.origin} was refused: the judge's key is only ever sent to the origin of its base URL.`])
    expect(judgeServer.requests).toHaveLength(0)
  })

  it('a base URL of another scheme than http(s) has no origin a request could match', async () => {
    const refusal = await refusalOf(guard(10, () => 'file:///tmp/v1').guarded.fetch('file:///tmp/v1/chat/completions', post()))
    expect(refusal.kind).toBe('origin')
  })
})

describe('withoutKey', () => {
  it('takes out the key as written and as base64, and leaves text without it alone', () => {
    const text = `key ${KEY}, basic ${Buffer.from(`user:${KEY}`).toString('base64')}`
    const clean = withoutKey(text, KEY)
    expect(secretForms(KEY).filter((form) => clean.includes(form))).toEqual([])
    expect(clean).toMatch(/^key \[redacted\], basic \S{0,8}\[redacted\]\S{0,4}$/)
    expect(withoutKey('nothing secret', KEY)).toBe('nothing secret')
    expect(withoutKey(text, null)).toBe(text)
  })
})
