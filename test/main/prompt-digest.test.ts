import { describe, expect, it } from 'vitest'
import { cacheKey, promptDigest } from '../../src/main/judges/prompt-digest'
import { JudgeSchema, type Judge } from '../../src/shared/relevance/llm-judge'

/** The digest kept with each grade and the judge cache's key. */

const judge = JudgeSchema.parse({ name: 'j', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge', seed: 1 })

describe('promptDigest', () => {
  it('is the SHA-256 of the prompt\'s UTF-8, in hex', () => {
    expect(promptDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(promptDigest('Query: café')).toMatch(/^[0-9a-f]{64}$/)
    expect(promptDigest('Query: café')).not.toBe(promptDigest('Query: cafe'))
  })
})

describe('cacheKey', () => {
  it('is the same for the same settings and prompt, and differs from the prompt digest', () => {
    const key = cacheKey(judge, judge.baseUrl, 'prompt')
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    const renamed: Judge = { ...judge, name: 'renamed', depth: 3, concurrency: 1, notes: 'x', prompt: 'another template' }
    expect(cacheKey(renamed, judge.baseUrl, 'prompt')).toBe(key)
    expect(key).not.toBe(promptDigest('prompt'))
  })

  it('changes with every setting that changes what the model answers', () => {
    const key = cacheKey(judge, judge.baseUrl, 'prompt')
    const changed = [
      cacheKey({ ...judge, provider: 'azure-openai', apiVersion: '2024-10-21' }, judge.baseUrl, 'prompt'),
      cacheKey(judge, 'http://127.0.0.1:8081/v1', 'prompt'),
      cacheKey({ ...judge, model: 'other' }, judge.baseUrl, 'prompt'),
      cacheKey({ ...judge, apiVersion: '2024-10-21' }, judge.baseUrl, 'prompt'),
      cacheKey({ ...judge, temperature: 0.5 }, judge.baseUrl, 'prompt'),
      cacheKey({ ...judge, seed: 2 }, judge.baseUrl, 'prompt'),
      cacheKey({ ...judge, seed: undefined }, judge.baseUrl, 'prompt'),
      cacheKey({ ...judge, structured: false }, judge.baseUrl, 'prompt'),
      cacheKey(judge, judge.baseUrl, 'prompt '),
    ]
    expect(new Set([key, ...changed]).size).toBe(changed.length + 1)
  })

  it('values cannot run into each other: model "ab" without an api-version is not model "a" with api-version "b"', () => {
    expect(cacheKey({ ...judge, model: 'a', apiVersion: 'b' }, judge.baseUrl, 'p')).not.toBe(cacheKey({ ...judge, model: 'ab', apiVersion: undefined }, judge.baseUrl, 'p'))
  })
})
