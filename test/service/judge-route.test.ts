import OpenAI, { NotFoundError, RateLimitError } from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import { loadDataset } from '../../src/service/dataset/load'
import type { Ref } from '../../src/service/dataset/model'
import { gradeOf, largestByName } from '../../src/service/judge/city-rule'
import { answerJsonSchema, JudgeSchema, parseJudgeAnswer, renderJudgePrompt } from '../../src/shared/relevance/llm-judge'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'

/**
 * The demo judge over real HTTP, asked by the official `openai` package as
 * the app asks a provider: /v1/models, a grade for a rendered prompt (JSON
 * schema or plain text), usage, the errors in OpenAI's shape, the busy
 * variant's 429 with Retry-After and the flaky variant's off-scale answers.
 * Any Bearer key or none is taken and never logged.
 */

const judge = JudgeSchema.parse({ name: 'demo', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge', fields: ['name', 'country', 'population'] })
const CANARY = 'sk-canary-7f3a9c'
const logged: string[] = []
let service: RunningService
let client: OpenAI

const dataset = loadDataset()
const largest = largestByName(dataset.cities.map((city) => ({ name: String(city.attributes.name), population: Number(city.attributes.population) || 0 })))
const fieldsOf = (id: string) => {
  const city = dataset.cityIndex.get(id)!
  return { name: city.attributes.name, country: (city.attributes.country as Ref).target.id, population: city.attributes.population, kind: city.attributes.kind }
}
const promptFor = (query: string, fields: Record<string, unknown>) => renderJudgePrompt(judge, DEFAULT_SCALE, query, { item: 'x', fields })

function ask(model: string, prompt: string, structured = true, sdk = client) {
  return sdk.chat.completions.create({
    model,
    messages: [{ role: 'user', content: prompt }],
    temperature: 0,
    seed: 1,
    ...(structured ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'grade', strict: true, schema: answerJsonSchema(DEFAULT_SCALE) } } } : {}),
  })
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${service.judgeUrl}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })

beforeAll(async () => {
  service = await startService({ port: 0, log: (message) => void logged.push(message) })
  client = new OpenAI({ baseURL: service.judgeUrl, apiKey: CANARY, maxRetries: 0 })
})
afterAll(async () => service?.close())

describe('GET /v1/models', () => {
  it("lists the demo's models, each saying it is the demo's stand-in and not a language model", async () => {
    const models = []
    for await (const model of client.models.list()) models.push(model)
    expect(models.map((model) => model.id)).toEqual(['demo-judge', 'demo-judge-busy', 'demo-judge-flaky'])
    for (const model of models) {
      expect(model).toMatchObject({ object: 'model', owned_by: 'query-explorer-demo' })
      expect((model as unknown as { description: string }).description).toMatch(/stand-in judge, not a language model/)
    }
    expect((await client.models.retrieve('demo-judge-busy')).id).toBe('demo-judge-busy')
    await expect(client.models.retrieve('gpt-4o')).rejects.toBeInstanceOf(NotFoundError)
  })
})

describe('POST /v1/chat/completions', () => {
  it('grades a rendered prompt by the rule, as JSON when a JSON schema is asked for, with usage', async () => {
    const prompt = promptFor('paris', fieldsOf('2988507'))
    const completion = await ask('demo-judge', prompt)
    expect(completion).toMatchObject({ object: 'chat.completion', model: 'demo-judge', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }] })
    expect(completion.id).toMatch(/^chatcmpl-demo-\d+$/)
    expect(completion._request_id).toMatch(/^req_demo_\d+$/)
    const content = completion.choices[0]!.message.content!
    expect(JSON.parse(content)).toEqual({ grade: 3, explanation: 'Named exactly "Paris", 2,138,551 inhabitants: a million or more.' })
    expect(completion.usage).toEqual({ prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: Math.ceil(prompt.length / 4) + Math.ceil(content.length / 4) })
  })

  it('answers "Grade: N. <explanation>" without a JSON schema, which the app parses', async () => {
    // Paris, Texas: named exactly, but the dataset's most populous Paris is larger (the query thread's lookup).
    const completion = await ask('demo-judge', promptFor('Paris', fieldsOf('4717560')), false)
    const content = completion.choices[0]!.message.content!
    expect(content).toBe('Grade: 2. Named exactly "Paris", 24,782 inhabitants, but another place of that name has 2,138,551.')
    expect(parseJudgeAnswer(content, DEFAULT_SCALE)).toMatchObject({ ok: true, grade: 2 })
  })

  it("gives the rule's grade for every city named Paris or Springfield, but on the seeded error items, which say so", async () => {
    const cities = dataset.cities.filter((city) => ['Paris', 'Springfield'].includes(String(city.attributes.name)))
    let moved = 0
    for (const city of cities) {
      const query = String(city.attributes.name).toLowerCase()
      const rule = gradeOf({ name: String(city.attributes.name), population: Number(city.attributes.population) }, query, largest.get(query) ?? 0)
      const answer = parseJudgeAnswer((await ask('demo-judge', promptFor(query, fieldsOf(city.id)))).choices[0]!.message.content!, DEFAULT_SCALE)
      if (!answer.ok) throw new Error(answer.reason)
      if (answer.grade !== rule) {
        moved++
        expect(Math.abs(answer.grade - rule)).toBe(1)
        expect(answer.explanation).toContain(`seeded error moved the rule's grade ${rule} to ${answer.grade}`)
      }
    }
    expect(cities.length).toBeGreaterThan(30)
    expect(moved).toBeGreaterThan(0)
    expect(moved).toBeLessThan(cities.length / 4)
  })

  it('answers a prompt without the lines it reads with grade 0 and what it could not find', async () => {
    const completion = await ask('demo-judge', 'Is the Eiffel Tower a good answer to "paris"?')
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({
      grade: 0,
      explanation: 'Could not grade: the prompt has no a "Query:" line, no a "name:" line, no a "population:" line. The demo judge grades from the last "Query:" line and the result\'s "name:" and "population:" lines.',
    })
  })

  it('reads the last user message, a system message beside it, text parts too', async () => {
    const completion = await client.chat.completions.create({
      model: 'demo-judge',
      messages: [
        { role: 'system', content: 'You are a relevance judge.' },
        { role: 'user', content: [{ type: 'text', text: promptFor('paris', fieldsOf('2988507')) }] },
      ],
    })
    expect(completion.choices[0]!.message.content).toBe('Grade: 3. Named exactly "Paris", 2,138,551 inhabitants: a million or more.')
  })

  it('takes no key or any key, and never logs one', async () => {
    const body = { model: 'demo-judge', messages: [{ role: 'user', content: promptFor('paris', fieldsOf('2988507')) }] }
    expect((await post(body)).status).toBe(200)
    expect((await post(body, { Authorization: `Bearer ${CANARY}` })).status).toBe(200)
    await post('{"model": "demo-judge", "messages": [', { Authorization: `Bearer ${CANARY}` })
    expect(logged.join('\n')).not.toContain(CANARY)
  })
})

describe('errors, in OpenAI shape', () => {
  it('404 model_not_found for a model it does not offer, through the SDK', async () => {
    const error = await ask('gpt-4o', promptFor('paris', fieldsOf('2988507'))).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model', type: 'invalid_request_error' })
    expect((error as Error).message).toMatch(/The model `gpt-4o` does not exist: the demo service offers demo-judge, demo-judge-busy, demo-judge-flaky/)
  })

  it('400 for a body it cannot take, naming the field', async () => {
    const cases: [unknown, string | null, RegExp][] = [
      ['{"model":', null, /could not parse the JSON body/],
      [{ messages: [{ role: 'user', content: 'x' }] }, 'model', /provide a model/],
      [{ model: 'demo-judge', messages: [] }, 'messages', /non-empty list/],
      [{ model: 'demo-judge', messages: [{ role: 'user', content: 'x' }], stream: true }, 'stream', /stream is not offered/],
      [{ model: 'demo-judge', messages: [{ role: 'user', content: 'x' }], temperature: 3 }, 'temperature', /from 0 to 2/],
      [{ model: 'demo-judge', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema' } }, 'response_format.json_schema', /with a name/],
      [{ model: 'demo-judge', messages: [{ role: 'robot', content: 'x' }] }, 'messages.[0].role', /must be one of/],
      [{ model: 'demo-judge', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }, 'messages.[0].content.[0]', /text only/],
    ]
    for (const [body, param, message] of cases) {
      const response = await post(body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      const { error } = (await response.json()) as { error: { message: string; type: string; param: string | null; code: string | null } }
      expect(error.type).toBe('invalid_request_error')
      expect(error.param).toBe(param)
      expect(error.message).toMatch(message)
    }
  })

  it('405 with Allow on another method, 404 on a path it does not serve, 413 past the body bound', async () => {
    const get = await fetch(`${service.judgeUrl}/chat/completions`)
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST'])
    expect(((await get.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error')
    const other = await fetch(`${service.judgeUrl}/embeddings`, { method: 'POST', body: '{}' })
    expect(other.status).toBe(404)
    expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid URL \(POST \/v1\/embeddings\)/)
    const big = await post({ model: 'demo-judge', messages: [{ role: 'user', content: 'x'.repeat(600 * 1024) }] })
    expect(big.status).toBe(413)
    expect(((await big.json()) as { error: { message: string } }).error.message).toMatch(/too large/)
  })
})

describe('the variants that show retries, budgets and failures', () => {
  it('demo-judge-busy answers 429 with Retry-After: 1 to every 4th call made to it', async () => {
    const prompt = promptFor('paris', fieldsOf('2988507'))
    const statuses: number[] = []
    for (let call = 1; call <= 8; call++) {
      const caught = await ask('demo-judge-busy', prompt).then(
        () => 200,
        (error: unknown) => {
          expect(error).toBeInstanceOf(RateLimitError)
          const limited = error as RateLimitError
          expect(limited.headers?.get('retry-after')).toBe('1')
          expect(limited).toMatchObject({ code: 'rate_limit_exceeded', type: 'requests' })
          return limited.status
        },
      )
      statuses.push(caught)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 200, 200, 200, 429])
    // Another model's calls are not counted.
    expect((await ask('demo-judge', prompt)).choices).toHaveLength(1)
  })

  it("the SDK's own retry waits out the 429 and gets the grade", async () => {
    const prompt = promptFor('paris', fieldsOf('2988507'))
    // Calls 9 to 11 are answered; the 12th is the 429 the retry follows.
    for (let call = 9; call <= 11; call++) await ask('demo-judge-busy', prompt)
    const retrying = new OpenAI({ baseURL: service.judgeUrl, apiKey: 'x', maxRetries: 1 })
    const { data, response } = await ask('demo-judge-busy', prompt, true, retrying).withResponse()
    expect(JSON.parse(data.choices[0]!.message.content!).grade).toBe(3)
    expect(response.status).toBe(200)
    // The 12th call was the 429 and the 13th its retry: the 16th is the next 429.
    for (let call = 14; call <= 15; call++) await ask('demo-judge-busy', prompt)
    await expect(ask('demo-judge-busy', prompt)).rejects.toBeInstanceOf(RateLimitError)
  })

  it('demo-judge-flaky answers 7, off the scale, for a fixed share of items, and the app parses that as a failure', async () => {
    const answers: string[] = []
    for (let i = 0; i < 60; i++) {
      const prompt = promptFor('san', { name: `San Town ${i}`, population: 600_000 })
      const flaky = (await ask('demo-judge-flaky', prompt)).choices[0]!.message.content!
      expect((await ask('demo-judge-flaky', prompt)).choices[0]!.message.content).toBe(flaky)
      const parsed = parseJudgeAnswer(flaky, DEFAULT_SCALE)
      if (parsed.ok) expect(flaky).toBe((await ask('demo-judge', prompt)).choices[0]!.message.content)
      else expect(parsed.reason).toMatch(/^The answer's grade 7 is not on the scale \(0, 1, 2, 3\)/)
      answers.push(flaky)
    }
    const off = answers.filter((answer) => JSON.parse(answer).grade === 7).length
    expect(off).toBeGreaterThan(0)
    expect(off).toBeLessThan(15)
  })
})
