import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CallMeter } from '../../src/main/judges/call-meter'
import { judgeClient, type GradeResult } from '../../src/main/judges/provider-client'
import { answerJsonSchema } from '../../src/shared/relevance/llm-judge'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'
import { secretForms } from '../../src/shared/security/redaction'
import { ANTHROPIC_VERSION, canaryKey, judgeOn, startLlmServer, startLlmServers, type LlmServer } from '../fixtures/llm-servers'
import { closedPort } from '../fixtures/ports'

/**
 * The judge's client over real HTTP against local servers speaking each
 * provider's wire format (test/fixtures/llm-servers.ts), through the official
 * SDKs: what is sent (path, query, headers, body), what is read, and that
 * retries, Retry-After, the budget, redirects and the key behave as a user
 * relies on.
 */

const KEY = canaryKey()
const PROMPT = 'Query: paris\n\nResult:\nname: Paris\npopulation: 2102650'
const scale = DEFAULT_SCALE

let servers: Awaited<ReturnType<typeof startLlmServers>>
beforeAll(async () => {
  servers = await startLlmServers({ key: KEY })
})
afterAll(() => servers.close())
beforeEach(() => {
  for (const server of servers.all) {
    server.requests.length = 0
    server.otherwise = () => ({ grade: 1, explanation: 'Scripted answer.' })
  }
})

const signal = () => new AbortController().signal
const meter = (calls = 100, tokens?: number) => new CallMeter({ calls, tokens })

function byProvider(): Array<[string, () => LlmServer]> {
  return [
    ['OpenAI', () => servers.openai],
    ['Azure OpenAI', () => servers.azure],
    ['Anthropic', () => servers.anthropic],
  ]
}

/** The key's header as each provider's SDK sends it. */
function keyHeaders(server: LlmServer, key: string | null): Record<string, string | undefined> {
  const sent = server.requests.at(-1)!.headers as Record<string, string | undefined>
  if (server.provider === 'azure-openai') return { 'api-key': sent['api-key'], authorization: sent.authorization, expected: key ?? undefined }
  return { authorization: sent.authorization, 'x-api-key': sent['x-api-key'], expected: key ? `Bearer ${key}` : undefined }
}

function leaks(result: unknown, key: string): boolean {
  const text = JSON.stringify(result)
  return secretForms(key).some((form) => text.includes(form))
}

describe.each(byProvider())('%s', (_name, serverOf) => {
  it('reads a grade, asking for structured output as the provider takes it, with the key in its header', async () => {
    const server = serverOf()
    server.script({ grade: 2, explanation: 'Names the city asked for.', usage: { input: 31, output: 9 } })
    const judge = judgeOn(server, { seed: 7 })
    const calls = meter()
    const result = await judgeClient(judge, server.baseUrl, KEY, calls).grade(PROMPT, scale, signal())
    expect(result).toEqual({ ok: true, grade: 2, explanation: 'Names the city asked for.', usage: { input: 31, output: 9 } })
    expect([calls.calls, calls.tokens]).toEqual([1, { input: 31, output: 9 }])

    const [request] = server.requests
    expect(request!.method).toBe('POST')
    const messages = [{ role: 'user', content: PROMPT }]
    if (server.provider === 'anthropic') {
      expect([request!.path, request!.query]).toEqual(['/v1/messages', {}])
      expect(request!.headers['anthropic-version']).toBe(ANTHROPIC_VERSION)
      expect(request!.body).toEqual({
        model: 'claude-test',
        max_tokens: 300,
        messages,
        tools: [{ name: 'grade', description: 'Records the grade of the search result on the scale, with a short explanation.', input_schema: answerJsonSchema(scale) }],
        tool_choice: { type: 'tool', name: 'grade' },
      })
    } else {
      const azure = server.provider === 'azure-openai'
      expect([request!.path, request!.query]).toEqual(
        azure ? ['/openai/deployments/grader-deployment/chat/completions', { 'api-version': '2024-10-21' }] : ['/v1/chat/completions', {}],
      )
      expect(request!.body).toEqual({
        model: azure ? 'grader-deployment' : 'gpt-test',
        messages,
        temperature: 0,
        seed: 7,
        response_format: { type: 'json_schema', json_schema: { name: 'grade', strict: true, schema: answerJsonSchema(scale) } },
      })
    }
    const headers = keyHeaders(server, KEY)
    expect(headers[server.provider === 'azure-openai' ? 'api-key' : 'authorization']).toBe(headers.expected)
    expect(server.provider === 'azure-openai' ? headers.authorization : headers['x-api-key']).toBeUndefined()
  })

  it('with structured output off, asks in plain text and reads the grade from the words', async () => {
    const server = serverOf()
    server.script({ text: 'Grade: 3\nThe result is the city itself.' })
    const judge = judgeOn(server, { structured: false })
    const result = await judgeClient(judge, server.baseUrl, KEY, meter()).grade(PROMPT, scale, signal())
    expect(result).toEqual({ ok: true, grade: 3, explanation: 'The result is the city itself.', usage: { input: 14, output: 12 } })
    const body = server.requests[0]!.body as Record<string, unknown>
    expect(['response_format', 'tools', 'tool_choice'].filter((field) => field in body)).toEqual([])
  })

  it('an answer off the scale, structured or not, is a failure holding the model\'s words, never a grade', async () => {
    const server = serverOf()
    server.script({ grade: 7, explanation: 'Seven out of ten, a solid match.' }, { text: 'I would rather not grade this one.' })
    const client = judgeClient(judgeOn(server), server.baseUrl, KEY, meter())
    const offScale = await client.grade(PROMPT, scale, signal())
    expect(offScale.ok).toBe(false)
    expect((offScale as { reason: string }).reason).toMatch(/^The answer's grade 7 is not on the scale \(0, 1, 2, 3\): ".*Seven out of ten, a solid match\./)
    expect(await client.grade(PROMPT, scale, signal())).toEqual({ ok: false, reason: 'The answer holds no grade: "I would rather not grade this one."' })
  })

  it('waits out a 429 with Retry-After: 1 and then reads the grade (both requests count)', async () => {
    const server = serverOf()
    server.script({ status: 429, message: 'Rate limit reached for requests.', retryAfter: '1' }, { grade: 3, explanation: 'Exact match.' })
    const calls = meter()
    const result = await judgeClient(judgeOn(server), server.baseUrl, KEY, calls).grade(PROMPT, scale, signal())
    expect(result).toMatchObject({ ok: true, grade: 3 })
    expect(server.requests.map((request) => request.headers['x-stainless-retry-count'])).toEqual(['0', '1'])
    // A lower bound only: the SDK waited at least the second asked for (a busy machine only waits longer).
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950)
    expect(calls.calls).toBe(2)
  })

  it('a budget of 3 calls stops at 3 requests, retries included, and says it was the budget', async () => {
    const server = serverOf()
    server.otherwise = () => ({ status: 429, message: 'Rate limit reached.', headers: { 'retry-after-ms': '1' } })
    const calls = meter(3)
    const client = judgeClient(judgeOn(server), server.baseUrl, KEY, calls, { maxRetries: 10 })
    expect(await client.grade(PROMPT, scale, signal())).toEqual({ ok: false, budget: true, reason: 'Not sent: the budget is spent (3 of 3 calls sent).' })
    expect(await client.grade(PROMPT, scale, signal())).toMatchObject({ ok: false, budget: true })
    expect(server.requests).toHaveLength(3)
    expect([calls.calls, calls.stoppedByBudget]).toEqual([3, true])
  })

  it('a token budget never starts a request whose estimate would pass it; the answer\'s usage replaces its estimate', async () => {
    const server = serverOf()
    server.otherwise = () => ({ grade: 2, usage: { input: 50, output: 10 } })
    // Each request is estimated at 74 tokens: the prompt's 14 and an answer's 60.
    const calls = meter(100, 140)
    const client = judgeClient(judgeOn(server), server.baseUrl, KEY, calls)
    const results = [await client.grade(PROMPT, scale, signal()), await client.grade(PROMPT, scale, signal()), await client.grade(PROMPT, scale, signal())]
    expect(results.map((result) => (result.ok ? result.grade : result.reason))).toEqual([2, 2, 'Not sent: it would pass the token budget (120 of 140 tokens used; this call is estimated at about 74).'])
    expect([server.requests.length, calls.tokens, calls.reserved, calls.stoppedByBudget]).toEqual([2, { input: 100, output: 20 }, 0, true])
    // With a token budget the answer is bounded too: Anthropic's max_tokens always, OpenAI's and Azure's max_completion_tokens.
    const body = server.requests[0]!.body as Record<string, unknown>
    expect(server.provider === 'anthropic' ? body.max_tokens : body.max_completion_tokens).toBe(300)
  })

  it('calls at once each reserve their estimate: a token budget is not passed by answers still on their way', async () => {
    const server = serverOf()
    server.otherwise = () => ({ grade: 1, usage: { input: 900, output: 100 } })
    // A prompt of about 890 tokens: with an answer's 60, one request fits a budget of 1,000, two do not.
    const prompt = `${PROMPT}\n${'x'.repeat(3_560 - PROMPT.length - 1)}`
    const calls = meter(100, 1_000)
    const client = judgeClient(judgeOn(server), server.baseUrl, KEY, calls)
    const results = await Promise.all(Array.from({ length: 4 }, () => client.grade(prompt, scale, signal())))
    expect(results.filter((result) => result.ok)).toHaveLength(1)
    expect(results.filter((result) => !result.ok && result.budget)).toHaveLength(3)
    expect([server.requests.length, calls.calls, calls.tokens.input + calls.tokens.output]).toEqual([1, 1, 1_000])
  })

  it('without a token budget, OpenAI and Azure are sent no bound on the answer (the provider\'s own)', async () => {
    const server = serverOf()
    await judgeClient(judgeOn(server), server.baseUrl, KEY, meter()).grade(PROMPT, scale, signal())
    const body = server.requests[0]!.body as Record<string, unknown>
    expect('max_completion_tokens' in body).toBe(false)
  })

  it('headers the environment gives the SDKs (OPENAI_CUSTOM_HEADERS, ANTHROPIC_CUSTOM_HEADERS, OPENAI_ADMIN_KEY) never reach the judge', async () => {
    const server = serverOf()
    const lines = 'X-Gateway-Token: gw-secret-1\nAuthorization: Bearer env-token\napi-key: env-key\nUser-Agent: env-agent\nX-Stainless-Extra: env-extra'
    vi.stubEnv('OPENAI_CUSTOM_HEADERS', lines)
    vi.stubEnv('ANTHROPIC_CUSTOM_HEADERS', lines)
    vi.stubEnv('OPENAI_ADMIN_KEY', 'sk-admin-from-env')
    try {
      for (const key of [KEY, null]) {
        const result = await judgeClient(judgeOn(server), server.baseUrl, key, meter()).grade(PROMPT, scale, signal())
        // This server asks for the key: without one it answers 401, and what was sent is still checked.
        expect(result.ok, String(key)).toBe(key !== null)
        const sent = server.requests.at(-1)!.headers
        const text = JSON.stringify(sent)
        for (const value of ['gw-secret-1', 'env-token', 'env-key', 'env-agent', 'env-extra', 'sk-admin-from-env']) expect(text, `${String(key)}: ${value}`).not.toContain(value)
        const expected = keyHeaders(server, key)
        expect(expected[server.provider === 'azure-openai' ? 'api-key' : 'authorization']).toBe(expected.expected)
        expect(server.provider === 'azure-openai' ? sent.authorization : sent['api-key']).toBeUndefined()
        if (server.provider === 'anthropic') expect(sent['anthropic-version']).toBe(ANTHROPIC_VERSION)
      }
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('a canary key reaches the server in its header and never a result, though the server echoes it everywhere', async () => {
    const server = serverOf()
    server.script(
      { status: 400, message: `Your key ${KEY} (${Buffer.from(KEY).toString('base64')}) may not do that.` },
      { grade: 2, explanation: `Graded with ${KEY}.` },
      { text: `No grade, but here is your key: ${KEY}` },
      { redirect: `http://example.invalid/?key=${KEY}`, status: 302 },
    )
    const client = judgeClient(judgeOn(server), server.baseUrl, KEY, meter())
    const results: GradeResult[] = []
    for (let i = 0; i < 4; i++) results.push(await client.grade(PROMPT, scale, signal()))
    expect(results.map((result) => result.ok)).toEqual([false, true, false, false])
    expect(results[0]).toMatchObject({ reason: expect.stringMatching(/ answered 400( \(invalid_request_error\))?: Your key \[redacted\] \(\[redacted\][^)]*\) may not do that\. If the model does not take structured output, turn it off for this judge\.$/) })
    expect(results[1]).toMatchObject({ explanation: 'Graded with [redacted].' })
    expect(results.filter((result) => leaks(result, KEY))).toEqual([])
    const headers = keyHeaders(server, KEY)
    expect(headers[server.provider === 'azure-openai' ? 'api-key' : 'authorization']).toBe(headers.expected)
  })

  it('the key is taken out of the raw words before they are cut to 300 characters or squeezed: no part of it survives', async () => {
    const server = serverOf()
    const pad = 'x'.repeat(280)
    server.script(
      { grade: 2, explanation: `${pad} ${KEY}` },
      { status: 400, message: `${pad} ${KEY}` },
      { text: `${'y'.repeat(290)} ${KEY}` },
    )
    const client = judgeClient(judgeOn(server), server.baseUrl, KEY, meter())
    const results: GradeResult[] = []
    for (let i = 0; i < 3; i++) results.push(await client.grade(PROMPT, scale, signal()))
    expect(results[0]).toEqual({ ok: true, grade: 2, explanation: `${pad} [redacted]`, usage: expect.anything() })
    for (const result of results) {
      const text = JSON.stringify(result)
      // Any 8 characters of the key's random part, wherever the cut fell.
      for (let at = 10; at + 8 <= KEY.length; at++) expect(text).not.toContain(KEY.slice(at, at + 8))
    }
  })

  it('an explanation stays within 300 characters when the key it names is shorter than [redacted]', async () => {
    const server = serverOf()
    const short = 'k3y-abcd'
    const open = await startLlmServer(server.provider)
    try {
      open.script({ grade: 1, explanation: `${short} `.repeat(33) })
      const result = await judgeClient(judgeOn(open), open.baseUrl, short, meter()).grade(PROMPT, scale, signal())
      expect(result.ok && result.explanation.length).toBe(300)
      expect(result.ok && result.explanation.startsWith('[redacted] [redacted]')).toBe(true)
    } finally {
      await open.close()
    }
  })

  it('with no key (a local server), sends no auth header at all', async () => {
    const open = await startLlmServer(serverOf().provider)
    try {
      const result = await judgeClient(judgeOn(open), open.baseUrl, null, meter()).grade(PROMPT, scale, signal())
      expect(result).toMatchObject({ ok: true, grade: 1 })
      const sent = open.requests[0]!.headers
      expect([sent.authorization, sent['api-key'], sent['x-api-key']]).toEqual([undefined, undefined, undefined])
    } finally {
      await open.close()
    }
  })

  it('never follows a redirect: the other origin receives nothing, and the status is named', async () => {
    const server = serverOf()
    const elsewhere = await startLlmServer(server.provider)
    try {
      server.script({ redirect: `${elsewhere.baseUrl}/chat/completions`, status: 307 })
      const result = await judgeClient(judgeOn(server), server.baseUrl, KEY, meter()).grade(PROMPT, scale, signal())
      expect(result).toEqual({
        ok: false,
        reason: `${server.origin} answered 307, a redirect to ${elsewhere.origin}: redirects are not followed, so the key is never sent anywhere but ${server.origin}. Set the judge's base URL to where the API answers.`,
      })
      expect([server.requests.length, elsewhere.requests.length]).toEqual([1, 0])
    } finally {
      await elsewhere.close()
    }
  })

  it('a wrong key: the status, the provider\'s words and what to check', async () => {
    const server = serverOf()
    const result = await judgeClient(judgeOn(server), server.baseUrl, 'sk-wrong-key', meter()).grade(PROMPT, scale, signal())
    const said = {
      openai: '401 (invalid_request_error): Incorrect API key provided: sk-wro*****-key.',
      'azure-openai': '401: Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      anthropic: '401 (authentication_error): invalid x-api-key.',
    }[server.provider]
    expect(result).toEqual({ ok: false, reason: `${server.origin} answered ${said} Is the key right for this origin?` })
    expect(server.requests).toHaveLength(1)
  })

  it('a cancelled grade ends at once and sends nothing more', async () => {
    const server = serverOf()
    server.script({ hang: true })
    const job = new AbortController()
    const pending = judgeClient(judgeOn(server), server.baseUrl, KEY, meter()).grade(PROMPT, scale, job.signal)
    await server.received(1)
    job.abort()
    expect(await pending).toEqual({ ok: false, reason: 'Cancelled.' })
    expect(await judgeClient(judgeOn(server), server.baseUrl, KEY, meter()).grade(PROMPT, scale, job.signal)).toEqual({ ok: false, reason: 'Cancelled before it was sent.' })
    expect(server.requests).toHaveLength(1)
  })
})

describe('failures that are not the provider\'s answer', () => {
  it('a key with a line break in it (an environment variable set carelessly) never reaches a reason, in part or with its white space squeezed', async () => {
    const server = await startLlmServer('openai')
    try {
      const key = `${KEY.slice(0, 14)}\n${KEY.slice(14)}`
      const result = await judgeClient(judgeOn(server), server.baseUrl, key, meter()).grade(PROMPT, scale, signal())
      expect(result.ok).toBe(false)
      const text = JSON.stringify(result)
      expect(text).not.toContain(KEY.slice(14))
      expect(text).not.toContain(KEY.slice(0, 14))
    } finally {
      await server.close()
    }
  })

  it('a server that never answers: a failure naming the time limit', async () => {
    const server = await startLlmServer('openai')
    try {
      server.otherwise = () => ({ hang: true })
      const result = await judgeClient(judgeOn(server), server.baseUrl, null, meter(), { maxRetries: 0, timeoutMs: 200 }).grade(PROMPT, scale, signal())
      expect(result).toEqual({ ok: false, reason: `${server.origin} did not answer within 0.2 s.` })
    } finally {
      await server.close()
    }
  })

  it('nothing listening: the connection refused, after the retries, each counted', async () => {
    const port = await closedPort()
    const calls = meter()
    const judge = judgeOn({ provider: 'anthropic', baseUrl: `http://127.0.0.1:${port}`, model: 'claude-test', apiVersion: '' })
    const result = await judgeClient(judge, judge.baseUrl, KEY, calls, { maxRetries: 1 }).grade(PROMPT, scale, signal())
    expect(result).toEqual({ ok: false, reason: `Connection refused by 127.0.0.1:${port}: is the service running, and is the address right? (2 tries)` })
    expect(calls.calls).toBe(2)
  })

  it('an answer cut at the token limit says so', async () => {
    const server = await startLlmServer('openai')
    try {
      server.script({ text: '{"explanation": "The result names the city, so', cut: true })
      const result = await judgeClient(judgeOn(server), server.baseUrl, null, meter()).grade(PROMPT, scale, signal())
      expect(result).toEqual({ ok: false, reason: 'The answer holds no grade: "{"explanation": "The result names the city, so" (the answer stopped at the token limit)' })
    } finally {
      await server.close()
    }
  })

  it('a 200 that is not a chat completion (another server at that address) names what to check', async () => {
    const server = await startLlmServer('openai')
    try {
      server.script({ raw: '<html>Ollama is running</html>', contentType: 'text/html' }, { raw: '{"status":"ok"}' })
      const client = judgeClient(judgeOn(server), server.baseUrl, null, meter())
      const reason = `${server.origin} answered, but not with a chat completion: is the base URL the API root (for OpenAI-compatible servers it ends in /v1)?`
      expect([await client.grade(PROMPT, scale, signal()), await client.grade(PROMPT, scale, signal())]).toEqual([
        { ok: false, reason },
        { ok: false, reason },
      ])
    } finally {
      await server.close()
    }
    const anthropic = await startLlmServer('anthropic')
    try {
      anthropic.script({ raw: '{"completion":"2"}' })
      expect(await judgeClient(judgeOn(anthropic), anthropic.baseUrl, null, meter()).grade(PROMPT, scale, signal())).toEqual({
        ok: false,
        reason: `${anthropic.origin} answered, but not with a message: is the base URL the API root (https://api.anthropic.com, without /v1)?`,
      })
    } finally {
      await anthropic.close()
    }
  })

  it('a Retry-After longer than the longest wait is cut to it; the item then fails naming what the provider asked', async () => {
    const server = await startLlmServer('openai')
    try {
      server.otherwise = () => ({ status: 429, message: 'You exceeded your current quota.', retryAfter: '86400' })
      const client = judgeClient(judgeOn(server), server.baseUrl, null, meter(), { maxRetries: 1, maxRetryWaitMs: 1 })
      expect(await client.grade(PROMPT, scale, signal())).toEqual({
        ok: false,
        reason: `${server.origin} answered 429 (requests): You exceeded your current quota. Still rate limited after 2 tries (Retry-After: 86400): lower the concurrency or try later.`,
      })
      expect(server.requests).toHaveLength(2)
    } finally {
      await server.close()
    }
  })

  it('a base URL that is not an http(s) address: a failure, nothing sent', async () => {
    const calls = meter()
    for (const baseUrl of ['not a url', 'file:///tmp/v1']) {
      const judge = judgeOn({ provider: 'azure-openai', baseUrl: 'http://127.0.0.1:1', model: 'm', apiVersion: '2024-10-21' })
      expect(await judgeClient(judge, baseUrl, KEY, calls).grade(PROMPT, scale, signal())).toEqual({ ok: false, reason: "The judge's base URL is not an http(s) address." })
    }
    expect(calls.calls).toBe(0)
  })

  it('a server that reports no usage: the grade is read, and only the call counts', async () => {
    const server = await startLlmServer('openai')
    try {
      server.script({ grade: 0, usage: null })
      const calls = meter()
      expect(await judgeClient(judgeOn(server), server.baseUrl, null, calls).grade(PROMPT, scale, signal())).toEqual({ ok: true, grade: 0, explanation: 'Scripted answer.', usage: null })
      expect([calls.calls, calls.tokens]).toEqual([1, { input: 0, output: 0 }])
    } finally {
      await server.close()
    }
  })
})
