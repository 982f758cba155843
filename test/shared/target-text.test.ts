import { describe, expect, it } from 'vitest'
import { targetText } from '../../src/shared/test-cases/target-text'

describe('targetText', () => {
  it('names its target in words', () => {
    expect(targetText('Demo', { config: 'production' })).toBe('Demo, config production')
    expect(targetText('Demo', {})).toBe('Demo')
    expect(targetText('Staging', { api: 'places', config: 'a', version: '2' }, ' · ')).toBe('Staging · API places · config a · version 2')
  })
})
