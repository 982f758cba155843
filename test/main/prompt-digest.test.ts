import { describe, expect, it } from 'vitest'
import { cacheKey, promptDigest } from '../../src/main/judges/prompt-digest'
import { JudgeSchema, type Judge } from '../../src/shared/relevance/llm-judge'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'

/** The digest kept with each grade (the prompt and the model settings it was sent with) and the judge cache's key. */

const judge = JudgeSchema.parse({ name: 'j', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge', seed: 1 })

describe('promptDigest', () => {
  it('is a SHA-256 in hex, the same for the same settings and prompt, whatever the judge is called or how deep it looks', () => {
    const digest = promptDigest(judge, 'Query: café')
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
    const renamed: Judge = { ...judge, name: 'renamed', depth: 3, concurrency: 1, notes: 'x', baseUrl: 'http://127.0.0.1:9/v1' }
    expect(promptDigest(renamed, 'Query: café')).toBe(digest)
    expect(promptDigest(judge, 'Query: cafe')).not.toBe(digest)
  })

  it('changes with the model settings the prompt is sent with: a grade under another model is stale', () => {
    const digest = promptDigest(judge, 'prompt')
    const changed = [
      promptDigest({ ...judge, provider: 'azure-openai', apiVersion: '2024-10-21' }, 'prompt'),
      promptDigest({ ...judge, model: 'other' }, 'prompt'),
      promptDigest({ ...judge, apiVersion: '2024-10-21' }, 'prompt'),
      promptDigest({ ...judge, temperature: 0.5 }, 'prompt'),
      promptDigest({ ...judge, seed: 2 }, 'prompt'),
      promptDigest({ ...judge, seed: undefined }, 'prompt'),
      promptDigest({ ...judge, structured: false }, 'prompt'),
    ]
    expect(new Set([digest, ...changed]).size).toBe(changed.length + 1)
  })

  it('values cannot run into each other: model "ab" without an api-version is not model "a" with api-version "b"', () => {
    expect(promptDigest({ ...judge, model: 'a', apiVersion: 'b' }, 'p')).not.toBe(promptDigest({ ...judge, model: 'ab', apiVersion: undefined }, 'p'))
  })
})

describe('cacheKey', () => {
  const digest = promptDigest(judge, 'prompt')

  it('is the same for the same base URL, scale and digest, and differs from the digest', () => {
    const key = cacheKey(judge.baseUrl, DEFAULT_SCALE, digest)
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(cacheKey(judge.baseUrl, DEFAULT_SCALE.map((step) => ({ ...step })), digest)).toBe(key)
    expect(key).not.toBe(digest)
  })

  it("changes with the base URL, the digest (the model settings and the prompt) and the scale's grades", () => {
    const renamed: Judge = { ...judge, name: 'renamed', prompt: 'another template' }
    const key = cacheKey(judge.baseUrl, DEFAULT_SCALE, digest)
    const changed = [
      cacheKey('http://127.0.0.1:8081/v1', DEFAULT_SCALE, digest),
      cacheKey(judge.baseUrl, DEFAULT_SCALE, promptDigest({ ...renamed, model: 'other' }, 'prompt')),
      cacheKey(judge.baseUrl, DEFAULT_SCALE, promptDigest(judge, 'prompt ')),
      // The same prompt (a template without {{scale}}) on a two-grade scale: an answer given on 0–3 is not one on 0–1.
      cacheKey(judge.baseUrl, [{ grade: 0, label: 'Poor' }, { grade: 1, label: 'Fair' }], digest),
    ]
    expect(new Set([key, ...changed]).size).toBe(changed.length + 1)
  })
})
