import { describe, expect, it } from 'vitest'
import {
  answerJsonSchema,
  DEFAULT_JUDGE_PROMPT,
  estimateText,
  isJudgeRater,
  itemText,
  judgeRater,
  JudgeSchema,
  parseJudgeAnswer,
  renderJudgePrompt,
} from '../../src/shared/relevance/llm-judge'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'

const judge = JudgeSchema.parse({ name: 'demo', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge', fields: ['name', 'population'], maxFieldChars: 20 })

describe('an LLM judge', () => {
  it('takes the defaults a user expects, and names what is wrong by field and rule', () => {
    expect(judge).toMatchObject({ temperature: 0, prompt: DEFAULT_JUDGE_PROMPT, structured: true, fewShot: 0, depth: 10, concurrency: 4 })
    expect(judgeRater(judge)).toBe('llm:demo')
    expect([isJudgeRater('llm:demo'), isJudgeRater('Ann')]).toEqual([true, false])
    const azure = JudgeSchema.safeParse({ name: 'a', provider: 'azure-openai', baseUrl: 'https://x.openai.azure.com', model: 'gpt' })
    expect(azure.success).toBe(false)
    expect(azure.error!.issues[0]).toMatchObject({ path: ['apiVersion'] })
    const secretInUrl = JudgeSchema.safeParse({ name: 'a', provider: 'openai', baseUrl: 'https://user:pw@api.openai.com/v1', model: 'gpt' })
    expect(secretInUrl.error!.issues[0]).toMatchObject({ path: ['baseUrl'], message: 'is not an http(s) address without a user name or password in it' })
  })

  it('fills the prompt once: the scale, the query and the item\'s chosen fields, each cut to its bound', () => {
    const prompt = renderJudgePrompt(judge, DEFAULT_SCALE, 'paris {{item}}', { item: 'p1', fields: { name: 'Paris', population: 2138551, country: 'FR', notes: 'x'.repeat(50) } })
    expect(prompt).toContain('0 = Poor\n1 = Fair\n2 = Good\n3 = Perfect')
    // A query holding a placeholder is not filled again.
    expect(prompt).toContain('Query: paris {{item}}')
    expect(prompt).toContain('Result:\nname: Paris\npopulation: 2138551\n')
    expect(prompt).not.toContain('country')
    const all = itemText({ fields: [], maxFieldChars: 20 }, { name: 'Paris', notes: 'x'.repeat(50) })
    expect(all).toBe(`name: Paris\nnotes: ${'x'.repeat(19)}…`)
  })

  it('asks a structured answer holding a grade of the scale', () => {
    expect(answerJsonSchema(DEFAULT_SCALE)).toEqual({
      type: 'object',
      properties: { grade: { type: 'integer', enum: [0, 1, 2, 3] }, explanation: { type: 'string', maxLength: 300 } },
      required: ['grade', 'explanation'],
      additionalProperties: false,
    })
  })

  it('reads a grade from JSON, fenced JSON or words; off the scale or none is a failure quoting the model', () => {
    expect(parseJudgeAnswer('{"grade":2,"explanation":"ok"}', DEFAULT_SCALE)).toEqual({ ok: true, grade: 2, explanation: 'ok' })
    expect(parseJudgeAnswer('```json\n{"grade": "3", "explanation": "exact"}\n```', DEFAULT_SCALE)).toEqual({ ok: true, grade: 3, explanation: 'exact' })
    expect(parseJudgeAnswer('Grade: 1. Only a prefix.', DEFAULT_SCALE)).toEqual({ ok: true, grade: 1, explanation: '. Only a prefix.' })
    expect(parseJudgeAnswer('{"grade":7,"explanation":"very"}', DEFAULT_SCALE)).toEqual({ ok: false, reason: 'The answer\'s grade 7 is not on the scale (0, 1, 2, 3): "{"grade":7,"explanation":"very"}"' })
    expect(parseJudgeAnswer('I cannot tell.', DEFAULT_SCALE)).toEqual({ ok: false, reason: 'The answer holds no grade: "I cannot tell."' })
    expect(parseJudgeAnswer('{"grade":2.5}', DEFAULT_SCALE).ok).toBe(false)
  })

  it('reads no grade from a number that does not stand alone: a sign, a decimal part, a fraction or a range', () => {
    for (const text of ['Grade: 2.5 - between fair and good', 'Grade: -1 (irrelevant)', 'Grade: \u22121', 'grade 2/3', 'Grade: 2,5', 'Grade: 1-2, it depends']) {
      expect(parseJudgeAnswer(text, DEFAULT_SCALE), text).toEqual({ ok: false, reason: `The answer holds no grade: "${text}"` })
    }
    // A number that ends the sentence or is followed by words stands alone.
    expect(parseJudgeAnswer('**Grade:** 2, a fair match.', DEFAULT_SCALE)).toMatchObject({ ok: true, grade: 2 })
    expect(parseJudgeAnswer('Grade 3.', DEFAULT_SCALE)).toMatchObject({ ok: true, grade: 3 })
  })

  it('an answer that is a JSON object without a grade holds none: its words are never read for one', () => {
    expect(parseJudgeAnswer('{"score": 7, "explanation": "not grade 2"}', DEFAULT_SCALE)).toEqual({ ok: false, reason: 'The answer holds no grade: "{"score": 7, "explanation": "not grade 2"}"' })
    expect(parseJudgeAnswer('Grade: 2 {"note": "see above"}', DEFAULT_SCALE)).toMatchObject({ ok: false })
    expect(parseJudgeAnswer('Grade: 2 {not json}', DEFAULT_SCALE)).toMatchObject({ ok: true, grade: 2 })
  })

  it('scrubs the raw text before squeezing and cutting it, so a secret is never left in part and the cut comes after', () => {
    const secret = 'sk-canary-0123456789abcdef'
    const scrub = (text: string) => text.split(secret).join('[redacted]')
    const near = parseJudgeAnswer(JSON.stringify({ grade: 2, explanation: `${'x'.repeat(280)} ${secret}` }), DEFAULT_SCALE, scrub)
    expect(near).toEqual({ ok: true, grade: 2, explanation: `${'x'.repeat(280)} [redacted]` })
    const short = 'abcd'
    const many = parseJudgeAnswer(JSON.stringify({ grade: 1, explanation: short.repeat(75) }), DEFAULT_SCALE, (text) => text.split(short).join('[redacted]'))
    expect(many.ok && many.explanation.length).toBe(300)
    const failed = parseJudgeAnswer(`${'y'.repeat(290)} ${secret}`, DEFAULT_SCALE, scrub)
    expect(failed.ok ? '' : failed.reason).not.toContain(secret.slice(0, 12))
  })

  it('says the estimate in words', () => {
    expect(estimateText(1_240, 1_100_000)).toBe('about 1,240 calls, 1.1 M input tokens')
    expect(estimateText(1, 950)).toBe('about 1 call, 950 input tokens')
    expect(estimateText(30, 42_000)).toBe('about 30 calls, 42 k input tokens')
  })
})
