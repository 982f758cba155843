import { describe, expect, it } from 'vitest'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'
import { settingsText } from '../../src/shared/relevance/settings-text'

describe('settingsText', () => {
  it('says the gain, how unjudged results count, the threshold with its word, and the depth when given', () => {
    expect(settingsText({ gain: 'exponential', unjudged: 'zero', threshold: 1 }, DEFAULT_SCALE, 10)).toBe(
      'exponential gain (2^g − 1) · unjudged results count as not relevant · relevant from grade 1 (Fair) · depth 10',
    )
    expect(settingsText({ gain: 'linear', unjudged: 'skip', threshold: 3 }, DEFAULT_SCALE)).toBe(
      'linear gain (g) · unjudged results skipped · relevant from grade 3 (Perfect)',
    )
  })

  it('gives a threshold that is not a step of the scale without words', () => {
    const scale = [
      { grade: 0, label: 'No' },
      { grade: 4, label: 'Yes' },
    ]
    expect(settingsText({ gain: 'linear', unjudged: 'zero', threshold: 2 }, scale, 0)).toBe(
      'linear gain (g) · unjudged results count as not relevant · relevant from grade 2 · depth 0',
    )
  })
})
